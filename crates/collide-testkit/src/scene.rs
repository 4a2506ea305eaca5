//! Seeded scenes of many moving boxes, shared by the broad-phase tests and benchmarks.

use crate::Gen;
use collide::shapes::Aabb;
use collide::Vec3;

/// How the boxes of a [`MovingScene`] move each frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Motion {
    /// Uniformly spread boxes drifting about 2% of a box size per frame (frame coherence).
    Small,
    /// Uniformly spread boxes jumping up to 2 units (several box sizes) per frame.
    Large,
    /// Dense clusters moving as groups through each other, each box jittering inside its
    /// cluster.
    Clustered,
    /// Boxes drifting as in `Small`, except that each frame about a twentieth of them (chosen
    /// afresh each frame) jump to a random place in the cube: respawns and teleports.
    Teleport,
}

/// `n` boxes (half-extents in `[0.1, 0.5]`) in a cube sized for about one overlapping
/// neighbour per box, moving by `motion`, bouncing off the cube's walls.
#[derive(Clone, Debug)]
pub struct MovingScene {
    /// The boxes of the current frame.
    pub boxes: Vec<Aabb>,
    centers: Vec<Vec3>,
    half: Vec<Vec3>,
    vel: Vec<Vec3>,
    cluster: Vec<usize>,
    cluster_center: Vec<Vec3>,
    cluster_vel: Vec<Vec3>,
    /// Half-size of the cube holding the centres.
    pub extent: f32,
    motion: Motion,
    gen: Gen,
}

impl MovingScene {
    /// A seeded scene of `n` boxes.
    pub fn new(seed: u64, n: usize, motion: Motion) -> MovingScene {
        let mut gen = Gen::new(seed);
        // Two boxes overlap when their centres are within the sum of half-extents (mean 0.6)
        // on each axis: a volume of about 1.2^3 = 1.7 around each box. One neighbour on
        // average: n · 1.7 / side^3 = 1.
        let side = (1.7 * n.max(1) as f32).cbrt();
        let extent = 0.5 * side;
        let clusters = (n / 500).max(2);
        let mut cluster_center = Vec::with_capacity(clusters);
        let mut cluster_vel = Vec::with_capacity(clusters);
        gen.extent = extent;
        for _ in 0..clusters {
            cluster_center.push(gen.point() * 0.8);
            cluster_vel.push(gen.unit() * gen.range(0.05, 0.3));
        }
        let (mut centers, mut half, mut vel, mut cluster) = (
            Vec::with_capacity(n),
            Vec::with_capacity(n),
            Vec::with_capacity(n),
            Vec::with_capacity(n),
        );
        for i in 0..n {
            half.push(Vec3::new(
                gen.range(0.1, 0.5),
                gen.range(0.1, 0.5),
                gen.range(0.1, 0.5),
            ));
            let c = i % clusters;
            cluster.push(c);
            match motion {
                Motion::Small | Motion::Teleport => {
                    centers.push(gen.point());
                    vel.push(gen.unit() * gen.range(0.0, 0.02));
                }
                Motion::Large => {
                    centers.push(gen.point());
                    vel.push(gen.unit() * gen.range(0.0, 2.0));
                }
                Motion::Clustered => {
                    // Half the boxes in the clusters (each of radius ~ 2 per 500 boxes^(1/3)),
                    // half spread uniformly.
                    if i % 2 == 0 {
                        let r = 0.6 * ((n / clusters) as f32).cbrt();
                        centers.push(cluster_center[c] + gen.unit() * gen.range(0.0, r));
                    } else {
                        centers.push(gen.point());
                    }
                    vel.push(gen.unit() * gen.range(0.0, 0.05));
                }
            }
        }
        let mut s = MovingScene {
            boxes: Vec::with_capacity(n),
            centers,
            half,
            vel,
            cluster,
            cluster_center,
            cluster_vel,
            extent,
            motion,
            gen,
        };
        s.write_boxes();
        s
    }

    fn write_boxes(&mut self) {
        self.boxes.clear();
        for (c, h) in self.centers.iter().zip(&self.half) {
            self.boxes.push(Aabb::from_center_half_extents(*c, *h));
        }
    }

    /// Advances one frame.
    pub fn step(&mut self) {
        let e = self.extent;
        let bounce = |p: &mut Vec3, v: &mut Vec3| {
            for k in 0..3 {
                if p[k] > e {
                    p[k] = e;
                    v[k] = -v[k].abs();
                } else if p[k] < -e {
                    p[k] = -e;
                    v[k] = v[k].abs();
                }
            }
        };
        if self.motion == Motion::Clustered {
            for (c, v) in self.cluster_center.iter_mut().zip(&mut self.cluster_vel) {
                *c += *v;
                bounce(c, v);
            }
        }
        for i in 0..self.centers.len() {
            let mut d = self.vel[i];
            if self.motion == Motion::Clustered && i % 2 == 0 {
                d += self.cluster_vel[self.cluster[i]];
            }
            if self.motion == Motion::Large {
                // Change direction now and then so boxes do not just shuttle.
                if self.gen.range(0.0, 1.0) < 0.05 {
                    self.vel[i] = self.gen.unit() * self.gen.range(0.0, 2.0);
                }
            }
            let mut p = self.centers[i] + d;
            if self.motion == Motion::Teleport && self.gen.range(0.0, 1.0) < 0.05 {
                p = self.gen.point();
            }
            let mut v = self.vel[i];
            bounce(&mut p, &mut v);
            self.centers[i] = p;
            self.vel[i] = v;
        }
        self.write_boxes();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scenes_are_seeded_and_move() {
        for motion in [
            Motion::Small,
            Motion::Large,
            Motion::Clustered,
            Motion::Teleport,
        ] {
            let (mut a, b) = (
                MovingScene::new(3, 200, motion),
                MovingScene::new(3, 200, motion),
            );
            assert_eq!(a.boxes, b.boxes);
            let before = a.boxes.clone();
            a.step();
            assert_ne!(a.boxes, before);
            assert!(a.boxes.iter().all(|b| b.is_finite() && !b.is_empty()));
        }
    }
}
