//! `cold_row ROW SIDE ROUNDS`: one call of a bunny `compare_mesh` row (SIDE `collide` or
//! `parry`) timed the way the table times it, cold (every other bunny row runs between two
//! calls), with the minor page faults of each call (Linux `/proc/self/stat`). Prints the
//! median time and the faults' median, least and most.
use collide_bench::mesh_cases;
use std::time::Instant;

fn minflt() -> u64 {
    let s = std::fs::read_to_string("/proc/self/stat").unwrap();
    let after = &s[s.rfind(')').unwrap() + 2..];
    after.split(' ').nth(7).unwrap().parse().unwrap()
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let row = args
        .get(1)
        .map_or("mesh_build_bunny", String::as_str)
        .to_string();
    let side = args.get(2).map_or("collide", String::as_str).to_string();
    let rounds: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(21);
    let mut all = mesh_cases::bunny_cases(512);
    let k = all.iter().position(|c| c.name == row).unwrap();
    let (mut ts, mut fs) = (vec![], vec![]);
    for _ in 0..rounds {
        for (j, c) in all.iter_mut().enumerate() {
            if j == k {
                let f0 = minflt();
                let t = Instant::now();
                let h = if side == "parry" {
                    (c.parry)()
                } else {
                    (c.collide)()
                };
                ts.push(t.elapsed().as_secs_f64() * 1e6);
                fs.push(minflt() - f0);
                std::hint::black_box(h);
            } else {
                std::hint::black_box((c.collide)());
                std::hint::black_box((c.parry)());
            }
        }
    }
    ts.sort_by(f64::total_cmp);
    fs.sort();
    println!(
        "{row} {side}: median {:.1} µs, faults median {} (min {} max {})",
        ts[ts.len() / 2],
        fs[fs.len() / 2],
        fs[0],
        fs[fs.len() - 1]
    );
}
