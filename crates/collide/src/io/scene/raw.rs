//! The scene file as JSON gives it: the raw types serde reads, checked into the scene's.

use super::*;

/// serde_json's message without its trailing " at line L column C" (we print those first).
pub(super) fn strip_position(msg: &str) -> String {
    match msg.rfind(" at line ") {
        Some(i) => msg[..i].to_string(),
        None => msg.to_string(),
    }
}

// ---- The JSON as written, validated field by field so errors carry line and column. ----

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawScene {
    pub(super) bodies: Vec<RawBody>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawBody {
    pub(super) name: String,
    pub(super) shape: RawShape,
    #[serde(default)]
    pub(super) position: [f32; 3],
    #[serde(default)]
    pub(super) rotation: Rotation,
    #[serde(default)]
    pub(super) velocity: [f32; 3],
    #[serde(default)]
    pub(super) bounding: BoundingChoice,
    #[serde(default)]
    pub(super) test: TestChoice,
    #[serde(default)]
    pub(super) fixed: bool,
}

#[derive(Deserialize)]
#[serde(rename_all = "snake_case", try_from = "RawShapeUnchecked")]
pub(super) enum RawShape {
    Sphere {
        radius: f32,
    },
    Box {
        half_extents: [f32; 3],
    },
    Capsule {
        half_height: f32,
        radius: f32,
    },
    Mesh {
        path: PathBuf,
        convex: ConvexMode,
        scale: f32,
        part: Option<String>,
        origin: [f32; 3],
    },
    Heightfield {
        rows: usize,
        cols: usize,
        heights: Vec<f32>,
        scale: [f32; 3],
    },
}

#[derive(Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
enum RawShapeUnchecked {
    Sphere {
        radius: f32,
    },
    Box {
        half_extents: [f32; 3],
    },
    Capsule {
        half_height: f32,
        radius: f32,
    },
    Mesh {
        path: PathBuf,
        #[serde(default = "default_convex")]
        convex: ConvexMode,
        #[serde(default = "one")]
        scale: f32,
        #[serde(default)]
        part: Option<String>,
        #[serde(default)]
        origin: [f32; 3],
    },
    Heightfield {
        rows: usize,
        cols: usize,
        /// Row by row; `null` is a hole.
        heights: Vec<Option<f32>>,
        scale: [f32; 3],
    },
}

fn default_convex() -> ConvexMode {
    ConvexMode::Hull
}

fn one() -> f32 {
    1.0
}

/// `Ok(())` when `v` is finite and `> 0` (or `>= 0` when `allow_zero`).
fn check_size(what: &str, v: f32, allow_zero: bool) -> Result<(), String> {
    let ok = v.is_finite() && (v > 0.0 || (allow_zero && v == 0.0));
    if ok {
        Ok(())
    } else if allow_zero {
        Err(format!("{what} must be a finite number >= 0, found {v}"))
    } else {
        Err(format!("{what} must be a finite number > 0, found {v}"))
    }
}

impl TryFrom<RawShapeUnchecked> for RawShape {
    type Error = String;

    fn try_from(s: RawShapeUnchecked) -> Result<RawShape, String> {
        Ok(match s {
            RawShapeUnchecked::Sphere { radius } => {
                check_size("sphere radius", radius, false)?;
                RawShape::Sphere { radius }
            }
            RawShapeUnchecked::Box { half_extents } => {
                for (axis, v) in ["x", "y", "z"].iter().zip(half_extents) {
                    check_size(&format!("box half_extents.{axis}"), v, false)?;
                }
                RawShape::Box { half_extents }
            }
            RawShapeUnchecked::Capsule {
                half_height,
                radius,
            } => {
                check_size("capsule half_height", half_height, true)?;
                check_size("capsule radius", radius, false)?;
                RawShape::Capsule {
                    half_height,
                    radius,
                }
            }
            RawShapeUnchecked::Mesh {
                path,
                convex,
                scale,
                part,
                origin,
            } => {
                check_size("mesh scale", scale, false)?;
                if path.as_os_str().is_empty() {
                    return Err("mesh path must not be empty".to_string());
                }
                RawShape::Mesh {
                    path,
                    convex,
                    scale,
                    part,
                    origin,
                }
            }
            RawShapeUnchecked::Heightfield {
                rows,
                cols,
                heights,
                scale,
            } => {
                if rows < 2 || cols < 2 {
                    return Err(format!(
                        "heightfield rows and cols must be at least 2, found {rows} x {cols}"
                    ));
                }
                if Some(heights.len()) != rows.checked_mul(cols) {
                    return Err(format!(
                        "heightfield heights must hold rows x cols = {rows} x {cols} numbers \
                         (null for a hole), found {}",
                        heights.len()
                    ));
                }
                for (axis, v) in ["x", "y", "z"].iter().zip(scale) {
                    check_size(&format!("heightfield scale.{axis}"), v, false)?;
                }
                RawShape::Heightfield {
                    rows,
                    cols,
                    heights: heights.into_iter().map(|h| h.unwrap_or(f32::NAN)).collect(),
                    scale,
                }
            }
        })
    }
}

/// A rotation written as a quaternion or as Euler angles in degrees.
pub(super) struct Rotation(pub(super) Quat);

impl Default for Rotation {
    fn default() -> Rotation {
        Rotation(Quat::IDENTITY)
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
enum RawRotation {
    Quat([f32; 4]),
    EulerDeg([f32; 3]),
}

impl<'de> Deserialize<'de> for Rotation {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Rotation, D::Error> {
        use serde::de::Error;
        match RawRotation::deserialize(d)? {
            RawRotation::Quat([x, y, z, w]) => {
                let q = Quat::from_xyzw(x, y, z, w);
                let len = q.length();
                // A zero quaternion has no direction; an overflowing one has no finite length.
                if !(len.is_finite() && len > 1e-6) {
                    return Err(D::Error::custom(format!(
                        "rotation quat [{x}, {y}, {z}, {w}] must be non-zero and finite"
                    )));
                }
                Ok(Rotation(q / len))
            }
            RawRotation::EulerDeg([x, y, z]) => {
                if !(x.is_finite() && y.is_finite() && z.is_finite()) {
                    return Err(D::Error::custom("rotation euler_deg must be finite"));
                }
                // About world x first, then y, then z: q = Rz · Ry · Rx.
                let q = Quat::from_rotation_z(z.to_radians())
                    * Quat::from_rotation_y(y.to_radians())
                    * Quat::from_rotation_x(x.to_radians());
                Ok(Rotation(q.normalize()))
            }
        }
    }
}
