//! A tiny 3-D rasteriser on tiny-skia: a camera (orthographic or perspective, four views),
//! flat-shaded triangles, lines and translucent polygons drawn far to near (painter's order).

use collide::Vec3;
use tiny_skia::{FillRule, LineCap, Paint, PathBuilder, Pixmap, Stroke, Transform};

/// An sRGB colour with alpha, 0–255.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rgba(pub u8, pub u8, pub u8, pub u8);

impl Rgba {
    /// The colour with each channel times `k` (clamped), alpha kept.
    fn scaled(self, k: f32) -> Rgba {
        let f = |c: u8| (c as f32 * k).round().clamp(0.0, 255.0) as u8;
        Rgba(f(self.0), f(self.1), f(self.2), self.3)
    }

    fn paint(self) -> Paint<'static> {
        let mut p = Paint::default();
        p.set_color_rgba8(self.0, self.1, self.2, self.3);
        p.anti_alias = true;
        p
    }
}

/// Where the camera looks from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ViewDir {
    /// From above, in front and to the right (azimuth 35°, elevation 30°).
    Iso,
    /// From +y looking down; x to the right, -z up the picture.
    Top,
    /// From +z; x to the right, y up.
    Front,
    /// From +x; -z to the right, y up.
    Side,
}

/// A camera that frames a sphere of the scene in a picture of `width × height` pixels.
#[derive(Clone, Copy, Debug)]
pub struct Camera {
    target: Vec3,
    right: Vec3,
    up: Vec3,
    /// Unit vector from the target toward the eye.
    back: Vec3,
    perspective: bool,
    /// Eye distance from the target (perspective).
    dist: f32,
    /// Pixels per world unit (orthographic) or focal length in pixels (perspective).
    scale: f32,
    width: f32,
    height: f32,
    /// How far lines are pulled toward the eye in depth units (see [`Prim::Line`]); at least
    /// a few pixels' worth, more when faces are cut into large pieces.
    pub line_bias: f32,
}

/// Vertical field of view of the perspective camera.
const FOV_DEG: f32 = 35.0;

impl Camera {
    /// A camera looking at `target` from `view`, framing a sphere of `radius` around it.
    pub fn new(
        view: ViewDir,
        perspective: bool,
        target: Vec3,
        radius: f32,
        width: u32,
        height: u32,
    ) -> Camera {
        let back = match view {
            ViewDir::Iso => {
                let (az, el) = (35f32.to_radians(), 30f32.to_radians());
                Vec3::new(az.sin() * el.cos(), el.sin(), az.cos() * el.cos())
            }
            ViewDir::Top => Vec3::Y,
            ViewDir::Front => Vec3::Z,
            ViewDir::Side => Vec3::X,
        };
        // right = world-up × back; straight down, world-up is parallel to back: use -z as up.
        let right = Vec3::Y.cross(back).try_normalize().unwrap_or(Vec3::X);
        let up = back.cross(right);
        let radius = if radius.is_finite() && radius > 0.0 {
            radius
        } else {
            1.0
        };
        let (w, h) = (width as f32, height as f32);
        let half = 0.5 * w.min(h);
        let half_fov = (0.5 * FOV_DEG).to_radians();
        // Perspective: the sphere fits the cone when dist·sin(fov/2) >= radius.
        let dist = radius / half_fov.sin() * 1.1;
        let scale = if perspective {
            half / half_fov.tan()
        } else {
            0.9 * half / radius
        };
        let mut cam = Camera {
            target,
            right,
            up,
            back,
            perspective,
            dist,
            scale,
            width: w,
            height: h,
            line_bias: 0.0,
        };
        cam.line_bias = cam.pixels_in_depth(4.0);
        cam
    }

    /// A camera from `view` that frames every point: orthographic cameras fit the points'
    /// projected rectangle; perspective ones the smallest sphere about their box's centre.
    pub fn fit(
        view: ViewDir,
        perspective: bool,
        points: &[Vec3],
        width: u32,
        height: u32,
    ) -> Camera {
        let finite: Vec<Vec3> = points.iter().copied().filter(|p| p.is_finite()).collect();
        let Some(bounds) = collide::shapes::Aabb::from_points(&finite) else {
            return Camera::new(view, perspective, Vec3::ZERO, 1.0, width, height);
        };
        let c = bounds.center();
        let radius = finite
            .iter()
            .map(|&p| (p - c).length())
            .fold(0.0f32, f32::max)
            .max(1e-3);
        let mut cam = Camera::new(view, perspective, c, radius, width, height);
        if !perspective {
            // The projected rectangle of the points (in world units about `c`).
            let (mut x0, mut x1, mut y0, mut y1) = (f32::MAX, f32::MIN, f32::MAX, f32::MIN);
            for &p in &finite {
                let (x, y) = ((p - c).dot(cam.right), (p - c).dot(cam.up));
                (x0, x1, y0, y1) = (x0.min(x), x1.max(x), y0.min(y), y1.max(y));
            }
            let (w, h) = ((x1 - x0).max(1e-3), (y1 - y0).max(1e-3));
            cam.target = c + cam.right * (0.5 * (x0 + x1)) + cam.up * (0.5 * (y0 + y1));
            cam.scale = 0.84 * (width as f32 / w).min(height as f32 / h);
            cam.line_bias = cam.pixels_in_depth(4.0);
        }
        cam
    }

    /// The unit vector from the scene toward the viewer (for orthographic) or the eye.
    pub fn toward_eye(&self, p: Vec3) -> Vec3 {
        if self.perspective {
            (self.target + self.back * self.dist - p)
                .try_normalize()
                .unwrap_or(self.back)
        } else {
            self.back
        }
    }

    /// Pixel coordinates and depth (larger is farther) of a point; `None` behind the eye.
    pub fn project(&self, p: Vec3) -> Option<Vec3> {
        let v = p - self.target;
        let (x, y) = (v.dot(self.right), v.dot(self.up));
        let (sx, sy, depth) = if self.perspective {
            let z = self.dist - v.dot(self.back);
            if z < 0.02 * self.dist {
                return None;
            }
            (self.scale * x / z, self.scale * y / z, z)
        } else {
            (self.scale * x, self.scale * y, -v.dot(self.back))
        };
        let out = Vec3::new(0.5 * self.width + sx, 0.5 * self.height - sy, depth);
        out.is_finite().then_some(out)
    }

    /// The light direction: from over the viewer's left shoulder.
    fn light(&self) -> Vec3 {
        (self.back * 0.8 + self.up * 0.7 - self.right * 0.35).normalize()
    }
}

/// Something to draw.
#[derive(Clone, Debug)]
pub enum Prim {
    /// A triangle, flat-shaded from its normal; culled when `cull` and it faces away.
    Tri {
        /// Corners, counter-clockwise seen from the front.
        p: [Vec3; 3],
        /// Base colour before shading.
        color: Rgba,
        /// Drop the triangle when its front faces away from the eye (closed meshes).
        cull: bool,
    },
    /// A line segment of the given width in pixels, drawn slightly toward the eye so edges
    /// lying on a face stay visible.
    Line {
        /// Start.
        a: Vec3,
        /// End.
        b: Vec3,
        /// Colour.
        color: Rgba,
        /// Width in pixels.
        width: f32,
    },
    /// A flat convex polygon filled with a (usually translucent) colour and outlined.
    Poly {
        /// Corners in order.
        p: Vec<Vec3>,
        /// Fill colour.
        color: Rgba,
        /// Outline colour, if any.
        outline: Option<Rgba>,
    },
}

/// One projected primitive waiting in the painter's queue.
struct Queued {
    depth: f32,
    kind: QueuedKind,
}

enum QueuedKind {
    Fill {
        pts: Vec<(f32, f32)>,
        color: Rgba,
        outline: Option<(Rgba, f32)>,
    },
    Stroke {
        a: (f32, f32),
        b: (f32, f32),
        color: Rgba,
        width: f32,
    },
}

/// Draws the primitives far to near over a vertical gradient background.
pub fn draw(prims: &[Prim], cam: &Camera, width: u32, height: u32) -> Option<Pixmap> {
    let mut pix = Pixmap::new(width, height)?;
    background(&mut pix);
    let mut queue = queue_prims(prims, cam, width, height);
    // Far to near; a stable sort keeps the input order among equal depths.
    queue.sort_by(|x, y| y.depth.total_cmp(&x.depth));
    for q in &queue {
        paint(&mut pix, q);
    }
    Some(pix)
}

/// The primitives projected, shaded and split into what is painted, each with its depth.
fn queue_prims(prims: &[Prim], cam: &Camera, width: u32, height: u32) -> Vec<Queued> {
    let light = cam.light();
    // Lines split into pieces about a fortieth of the view wide sort well against faces.
    let piece = (width.min(height) as f32 / 40.0).max(4.0);
    let mut queue: Vec<Queued> = Vec::with_capacity(prims.len());
    for prim in prims {
        match prim {
            Prim::Tri { p, color, cull } => queue_tri(cam, light, p, *color, *cull, &mut queue),
            Prim::Line { a, b, color, width } => {
                queue_line(cam, piece, (*a, *b), *color, *width, &mut queue);
            }
            Prim::Poly { p, color, outline } => queue_poly(cam, p, *color, *outline, &mut queue),
        }
    }
    queue
}

/// A triangle, flat-shaded by `light` (unless culled).
fn queue_tri(
    cam: &Camera,
    light: Vec3,
    p: &[Vec3; 3],
    color: Rgba,
    cull: bool,
    queue: &mut Vec<Queued>,
) {
    let n = (p[1] - p[0]).cross(p[2] - p[0]);
    let Some(n) = n.try_normalize() else {
        return;
    };
    let centroid = (p[0] + p[1] + p[2]) / 3.0;
    let to_eye = cam.toward_eye(centroid);
    let facing = n.dot(to_eye);
    if cull && facing < 0.0 {
        return;
    }
    // Two-sided: light the side that faces the eye.
    let n = if facing < 0.0 { -n } else { n };
    let k = 0.38 + 0.62 * n.dot(light).max(0.0);
    let Some(q) = project_all(cam, p) else {
        return;
    };
    let depth = (q[0].z + q[1].z + q[2].z) / 3.0;
    let c = color.scaled(k);
    queue.push(Queued {
        depth,
        kind: QueuedKind::Fill {
            pts: q.iter().map(|v| (v.x, v.y)).collect(),
            color: c,
            // A hairline of the same colour hides the seams between neighbours.
            outline: Some((c, 0.8)),
        },
    });
}

/// A line, in pieces about `piece` pixels long.
fn queue_line(
    cam: &Camera,
    piece: f32,
    (a, b): (Vec3, Vec3),
    color: Rgba,
    width: f32,
    queue: &mut Vec<Queued>,
) {
    let (Some(pa), Some(pb)) = (cam.project(a), cam.project(b)) else {
        return;
    };
    let len_px = ((pa.x - pb.x).powi(2) + (pa.y - pb.y).powi(2)).sqrt();
    let n = ((len_px / piece).ceil() as usize).clamp(1, 64);
    for i in 0..n {
        let (u0, u1) = (i as f32 / n as f32, (i + 1) as f32 / n as f32);
        let (w0, w1) = (a.lerp(b, u0), a.lerp(b, u1));
        let (Some(q0), Some(q1)) = (cam.project(w0), cam.project(w1)) else {
            continue;
        };
        queue.push(Queued {
            // Pulled toward the eye: an edge on a face must win against it.
            depth: 0.5 * (q0.z + q1.z) - cam.line_bias,
            kind: QueuedKind::Stroke {
                a: (q0.x, q0.y),
                b: (q1.x, q1.y),
                color,
                width,
            },
        });
    }
}

/// A flat polygon, unshaded.
fn queue_poly(
    cam: &Camera,
    p: &[Vec3],
    color: Rgba,
    outline: Option<Rgba>,
    queue: &mut Vec<Queued>,
) {
    let q: Option<Vec<Vec3>> = p.iter().map(|&v| cam.project(v)).collect();
    let Some(q) = q else { return };
    if q.len() < 3 {
        return;
    }
    let depth = q.iter().map(|v| v.z).sum::<f32>() / q.len() as f32;
    queue.push(Queued {
        depth,
        kind: QueuedKind::Fill {
            pts: q.iter().map(|v| (v.x, v.y)).collect(),
            color,
            outline: outline.map(|o| (o, 1.5)),
        },
    });
}

/// Paints one queued fill or stroke.
fn paint(pix: &mut Pixmap, q: &Queued) {
    match &q.kind {
        QueuedKind::Fill {
            pts,
            color,
            outline,
        } => {
            let mut pb = PathBuilder::new();
            pb.move_to(pts[0].0, pts[0].1);
            for &(x, y) in &pts[1..] {
                pb.line_to(x, y);
            }
            pb.close();
            let Some(path) = pb.finish() else { return };
            pix.fill_path(
                &path,
                &color.paint(),
                FillRule::Winding,
                Transform::identity(),
                None,
            );
            if let Some((oc, w)) = outline {
                let stroke = Stroke {
                    width: *w,
                    ..Stroke::default()
                };
                pix.stroke_path(&path, &oc.paint(), &stroke, Transform::identity(), None);
            }
        }
        QueuedKind::Stroke { a, b, color, width } => {
            let mut pb = PathBuilder::new();
            pb.move_to(a.0, a.1);
            pb.line_to(b.0, b.1);
            let Some(path) = pb.finish() else { return };
            let stroke = Stroke {
                width: *width,
                line_cap: LineCap::Round,
                ..Stroke::default()
            };
            pix.stroke_path(&path, &color.paint(), &stroke, Transform::identity(), None);
        }
    }
}

impl Camera {
    /// `px` pixels as a depth difference near the target.
    fn pixels_in_depth(&self, px: f32) -> f32 {
        if self.perspective {
            px * self.dist / self.scale
        } else {
            px / self.scale
        }
    }
}

fn project_all(cam: &Camera, p: &[Vec3; 3]) -> Option<[Vec3; 3]> {
    Some([cam.project(p[0])?, cam.project(p[1])?, cam.project(p[2])?])
}

/// A dark slate gradient, lighter at the top.
fn background(pix: &mut Pixmap) {
    let h = pix.height().max(1) as f32;
    let w = pix.width();
    let data = pix.data_mut();
    for (y, row) in data.chunks_mut(w as usize * 4).enumerate() {
        let t = y as f32 / h;
        let c = |top: f32, bottom: f32| (top + (bottom - top) * t).round() as u8;
        let (r, g, b) = (c(46.0, 22.0), c(52.0, 25.0), c(64.0, 32.0));
        for px in row.chunks_mut(4) {
            px.copy_from_slice(&[r, g, b, 255]);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // The target projects to the picture's centre in every view, both projections.
    #[test]
    fn target_at_centre() {
        for view in [ViewDir::Iso, ViewDir::Top, ViewDir::Front, ViewDir::Side] {
            for persp in [false, true] {
                let c = Camera::new(view, persp, Vec3::new(1.0, 2.0, 3.0), 2.0, 200, 100);
                let p = c.project(Vec3::new(1.0, 2.0, 3.0)).unwrap();
                assert!((p.x - 100.0).abs() < 1e-3 && (p.y - 50.0).abs() < 1e-3);
            }
        }
    }

    // Front view: +x is right, +y is up (smaller pixel y), nearer points have smaller depth.
    #[test]
    fn front_axes() {
        let c = Camera::new(ViewDir::Front, false, Vec3::ZERO, 1.0, 100, 100);
        let o = c.project(Vec3::ZERO).unwrap();
        assert!(c.project(Vec3::X).unwrap().x > o.x);
        assert!(c.project(Vec3::Y).unwrap().y < o.y);
        assert!(c.project(Vec3::Z).unwrap().z < o.z);
        let t = Camera::new(ViewDir::Top, false, Vec3::ZERO, 1.0, 100, 100);
        assert!(
            t.project(-Vec3::Z).unwrap().y < o.y,
            "top view: -z is up the picture"
        );
    }

    // A sphere of the framed radius stays inside the picture in perspective.
    #[test]
    fn perspective_frames_the_sphere() {
        let c = Camera::new(ViewDir::Iso, true, Vec3::ZERO, 3.0, 120, 120);
        for d in [Vec3::X, Vec3::Y, Vec3::Z, -Vec3::X, -Vec3::Y, -Vec3::Z] {
            let p = c.project(d * 3.0).unwrap();
            assert!(p.x > 0.0 && p.x < 120.0 && p.y > 0.0 && p.y < 120.0, "{p}");
        }
    }

    // A red triangle facing the eye colours the centre pixel; culled when it faces away.
    #[test]
    fn triangle_drawn_and_culled() {
        let c = Camera::new(ViewDir::Front, false, Vec3::ZERO, 1.0, 64, 64);
        let tri = [
            Vec3::new(-1.0, -1.0, 0.0),
            Vec3::new(1.0, -1.0, 0.0),
            Vec3::new(0.0, 1.0, 0.0),
        ];
        let red = Rgba(250, 0, 0, 255);
        let pix = draw(
            &[Prim::Tri {
                p: tri,
                color: red,
                cull: true,
            }],
            &c,
            64,
            64,
        )
        .unwrap();
        let px = pix.pixel(32, 36).unwrap();
        assert!(px.red() > 150 && px.green() < 60, "{px:?}");
        let back = [tri[0], tri[2], tri[1]];
        let pix = draw(
            &[Prim::Tri {
                p: back,
                color: red,
                cull: true,
            }],
            &c,
            64,
            64,
        )
        .unwrap();
        assert!(pix.pixel(32, 36).unwrap().red() < 100);
    }

    // Painter's order: the nearer of two overlapping triangles wins whatever the input order.
    #[test]
    fn nearer_wins() {
        let c = Camera::new(ViewDir::Front, false, Vec3::ZERO, 2.0, 64, 64);
        let tri = |z: f32| {
            [
                Vec3::new(-1.0, -1.0, z),
                Vec3::new(1.0, -1.0, z),
                Vec3::new(0.0, 1.0, z),
            ]
        };
        let near = Prim::Tri {
            p: tri(1.0),
            color: Rgba(0, 0, 250, 255),
            cull: false,
        };
        let far = Prim::Tri {
            p: tri(-1.0),
            color: Rgba(250, 0, 0, 255),
            cull: false,
        };
        for prims in [vec![near.clone(), far.clone()], vec![far, near]] {
            let pix = draw(&prims, &c, 64, 64).unwrap();
            let px = pix.pixel(32, 34).unwrap();
            assert!(px.blue() > px.red(), "{px:?}");
        }
    }
}
