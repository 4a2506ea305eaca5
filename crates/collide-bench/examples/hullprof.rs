use collide::convex::ConvexHull;
use collide_testkit::Gen;
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let n: usize = a[1].parse().unwrap();
    let sphere = a[2] == "s";
    let reps: usize = a[3].parse().unwrap();
    let mut g = Gen::new(61);
    let pts: Vec<collide::Vec3> = (0..n)
        .map(|_| {
            let u = g.unit();
            if sphere {
                u
            } else {
                u * g.range(0.0, 1.0).cbrt()
            }
        })
        .collect();
    let t = std::time::Instant::now();
    let mut s = 0;
    for _ in 0..reps {
        s += ConvexHull::try_new(&pts).unwrap().faces().len();
    }
    println!("{s} {:?}", t.elapsed() / reps as u32);
}
