use collide::broadphase::{BroadPhase, CollisionGroups, DynamicBvh};
use collide_testkit::scene::{Motion, MovingScene};
struct Instant(u64);
impl Instant {
    fn now() -> Instant {
        let s = std::fs::read_to_string("/proc/thread-self/schedstat").unwrap();
        Instant(s.split_whitespace().next().unwrap().parse().unwrap())
    }
    fn elapsed(&self) -> std::time::Duration {
        std::time::Duration::from_nanos(Instant::now().0 - self.0)
    }
}
impl std::ops::Sub for Instant {
    type Output = std::time::Duration;
    fn sub(self, o: Instant) -> std::time::Duration {
        std::time::Duration::from_nanos(self.0 - o.0)
    }
}
fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(100_000);
    let margin: f32 = std::env::args()
        .nth(2)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0.1);
    let which = std::env::args().nth(3).unwrap_or_default();
    for motion in [Motion::Small, Motion::Clustered, Motion::Large] {
        if !which.is_empty() && format!("{motion:?}") != which {
            continue;
        }
        let mut scene = MovingScene::new(2, n, motion);
        let mut bp = DynamicBvh::with_margin(margin);
        for b in &scene.boxes {
            bp.insert(*b, CollisionGroups::ALL).unwrap();
        }
        let mut out = Vec::new();
        bp.update_pairs(&mut out);
        let (mut tu, mut tp, mut moved, mut reb, mut fat) = (0.0, 0.0, 0, 0, 0);
        let frames = 40;
        for _ in 0..frames {
            scene.step();
            let t = Instant::now();
            for (i, b) in scene.boxes.iter().enumerate() {
                bp.update(i as u32, *b).unwrap();
            }
            let t1 = Instant::now();
            bp.update_pairs(&mut out);
            tp += t1.elapsed().as_secs_f64();
            tu += (Instant(t1.0) - t).as_secs_f64();
            moved += bp.last_moved();
            reb += bp.last_rebuilt() as usize;
            fat += bp.fat_pair_count();
        }
        let f = frames as f64;
        println!("{motion:?}: update {:.2} ms, pairs {:.2} ms, moved {}, rebuilds {reb}/{frames}, fat {}, pairs {}, height {} area {:.1}",
            tu * 1e3 / f, tp * 1e3 / f, moved / frames, fat / frames, out.len(), bp.height(), bp.area_ratio());
    }
}
