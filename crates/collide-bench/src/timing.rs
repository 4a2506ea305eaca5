//! The timer behind `compare`: interleaved passes, several rounds, the median.
//!
//! A [`Case`] is one query with two closures, each running the whole fixed input set once
//! through one library and returning how many pairs hit (so both sides provably did the work,
//! and the counts can be compared). [`measure`] runs, for every round, every case's collide
//! pass and parry3d pass back to back, alternating which goes first, so that a burst of load
//! on a shared machine lands on both columns alike; each row reports the median over rounds of
//! the time per query.
//!
//! A case may carry a second parry3d pass, [`Direct`]: parry's fastest way to do the same work
//! (its per-shape function in the shape's own frame, the ray or motion moved there by the
//! caller), beside the dispatching call a pipeline makes. The ratio is then taken against the
//! faster of the two.

use serde::Serialize;
use std::hint::black_box;
use std::time::Instant;

/// One pass over the inputs; returns the number of hits.
pub type Pass = Box<dyn FnMut() -> usize>;

/// A query measured in both libraries on the same inputs.
pub struct Case {
    /// Row name (`obb_obb`, `ray_aabb`, …).
    pub name: String,
    /// Queries per pass (the number of input configurations).
    pub n: usize,
    /// One pass through collide.
    pub collide: Pass,
    /// One pass through parry3d.
    pub parry: Pass,
    /// What the parry3d column calls, for the table's notes.
    pub parry_call: String,
    /// parry3d's direct path for the same work, where it has one.
    pub direct: Option<Direct>,
}

/// parry3d's direct, non-dispatching way to answer a case: one pass and what it calls.
pub struct Direct {
    /// One pass through parry3d's direct path.
    pub pass: Pass,
    /// What the pass calls, for the table's notes.
    pub call: String,
}

/// One measured row.
#[derive(Clone, Debug, Serialize)]
pub struct Row {
    /// Query name.
    pub query: String,
    /// Median ns per query, collide.
    pub collide_ns: f64,
    /// Median ns per query, parry3d's dispatching call.
    pub parry_ns: f64,
    /// Median ns per query, parry3d's direct path (`None` where the row has none).
    pub parry_direct_ns: Option<f64>,
    /// The faster parry3d time over collide's, `min(parry_ns, parry_direct_ns) / collide_ns`:
    /// how many times faster collide is than parry's fastest way.
    pub ratio: f64,
    /// Queries per pass.
    pub n: usize,
    /// Hits per pass, collide.
    pub collide_hits: usize,
    /// Hits per pass, parry3d's dispatching call.
    pub parry_hits: usize,
    /// Hits per pass, parry3d's direct path.
    pub parry_direct_hits: Option<usize>,
    /// What the parry3d column calls.
    pub parry_call: String,
    /// What the direct parry3d column calls.
    pub parry_direct_call: Option<String>,
}

fn time_pass(pass: &mut Pass, n: usize) -> (f64, usize) {
    let start = Instant::now();
    let hits = black_box(pass());
    (start.elapsed().as_nanos() as f64 / n.max(1) as f64, hits)
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    let m = v.len() / 2;
    if v.is_empty() {
        f64::NAN
    } else if v.len() % 2 == 1 {
        v[m]
    } else {
        0.5 * (v[m - 1] + v[m])
    }
}

/// Times every case for `rounds` rounds (after one warm-up pass each) and returns one row per
/// case, in order. `progress` is called after each round with the round number. Within a
/// round a case's passes run back to back, in the order collide, parry3d, direct on even
/// rounds and reversed on odd ones.
pub fn measure(cases: &mut [Case], rounds: usize, mut progress: impl FnMut(usize)) -> Vec<Row> {
    let mut c_ns = vec![Vec::with_capacity(rounds); cases.len()];
    let mut p_ns = vec![Vec::with_capacity(rounds); cases.len()];
    let mut d_ns = vec![Vec::with_capacity(rounds); cases.len()];
    let mut hits = vec![(0, 0, None); cases.len()];
    for case in cases.iter_mut() {
        black_box((case.collide)());
        black_box((case.parry)());
        if let Some(d) = case.direct.as_mut() {
            black_box((d.pass)());
        }
    }
    for round in 0..rounds {
        for (k, case) in cases.iter_mut().enumerate() {
            let n = case.n;
            let (c, p, d) = if round % 2 == 0 {
                let c = time_pass(&mut case.collide, n);
                let p = time_pass(&mut case.parry, n);
                (
                    c,
                    p,
                    case.direct.as_mut().map(|d| time_pass(&mut d.pass, n)),
                )
            } else {
                let d = case.direct.as_mut().map(|d| time_pass(&mut d.pass, n));
                let p = time_pass(&mut case.parry, n);
                (time_pass(&mut case.collide, n), p, d)
            };
            c_ns[k].push(c.0);
            p_ns[k].push(p.0);
            if let Some(d) = d {
                d_ns[k].push(d.0);
            }
            hits[k] = (c.1, p.1, d.map(|d| d.1));
        }
        progress(round);
    }
    cases
        .iter()
        .enumerate()
        .map(|(k, case)| {
            let collide_ns = median(&mut c_ns[k]);
            let parry_ns = median(&mut p_ns[k]);
            let parry_direct_ns = case.direct.as_ref().map(|_| median(&mut d_ns[k]));
            let fastest = parry_direct_ns.map_or(parry_ns, |d| d.min(parry_ns));
            Row {
                query: case.name.clone(),
                collide_ns,
                parry_ns,
                parry_direct_ns,
                ratio: fastest / collide_ns,
                n: case.n,
                collide_hits: hits[k].0,
                parry_hits: hits[k].1,
                parry_direct_hits: hits[k].2,
                parry_call: case.parry_call.clone(),
                parry_direct_call: case.direct.as_ref().map(|d| d.call.clone()),
            }
        })
        .collect()
}

/// Formats a time in ns with three significant digits.
fn ns(x: f64) -> String {
    if x >= 100.0 {
        format!("{x:.0}")
    } else if x >= 10.0 {
        format!("{x:.1}")
    } else {
        format!("{x:.2}")
    }
}

/// The markdown table: `query | collide ns | parry3d ns | ratio (parry/collide)`, plus the hit
/// counts so a reader can see both libraries answered the same inputs. When some row has a
/// direct parry3d path the table gets its column (`—` where a row has none), and the ratio is
/// against the faster parry3d column.
pub fn markdown(rows: &[Row]) -> String {
    if !rows.iter().any(|r| r.parry_direct_ns.is_some()) {
        let mut s = String::from(
            "| query | collide ns | parry3d ns | ratio (parry/collide) | hits collide / parry3d (of n) |\n\
             |---|---:|---:|---:|---|\n",
        );
        for r in rows {
            s.push_str(&format!(
                "| {} | {} | {} | {:.2}x | {} / {} ({}) |\n",
                r.query,
                ns(r.collide_ns),
                ns(r.parry_ns),
                r.ratio,
                r.collide_hits,
                r.parry_hits,
                r.n
            ));
        }
        return s;
    }
    let mut s = String::from(
        "| query | collide ns | parry3d ns (dispatch) | parry3d ns (direct) | ratio (fastest parry/collide) \
         | hits collide / dispatch / direct (of n) |\n\
         |---|---:|---:|---:|---:|---|\n",
    );
    for r in rows {
        s.push_str(&format!(
            "| {} | {} | {} | {} | {:.2}x | {} / {} / {} ({}) |\n",
            r.query,
            ns(r.collide_ns),
            ns(r.parry_ns),
            r.parry_direct_ns.map_or("—".into(), ns),
            r.ratio,
            r.collide_hits,
            r.parry_hits,
            r.parry_direct_hits.map_or("—".into(), |h| h.to_string()),
            r.n
        ));
    }
    s
}

/// The machine the numbers were taken on: logical CPUs, CPU model, load average.
#[derive(Clone, Debug, Serialize)]
pub struct Machine {
    /// `std::thread::available_parallelism`.
    pub cpus: usize,
    /// The first `model name` of `/proc/cpuinfo` (or "unknown").
    pub cpu_model: String,
    /// `/proc/loadavg` when the run started (other work on the machine slows both columns).
    pub loadavg_start: String,
    /// `/proc/loadavg` when the run ended.
    pub loadavg_end: String,
}

/// [`measure`] with its progress (`round k/n`) on standard error, ending the line after.
pub fn measure_showing_progress(cases: &mut [Case], rounds: usize) -> Vec<Row> {
    use std::io::Write;
    let rows = measure(cases, rounds, |r| {
        eprint!("\rround {}/{rounds}", r + 1);
        let _ = std::io::stderr().flush();
    });
    eprintln!();
    rows
}

/// The line above a table: what it compares, on which machine, under what load (when the run
/// started and now), and how it was timed.
pub fn header(what: &str, loadavg_start: &str, rounds: usize, n: usize) -> String {
    format!(
        "collide vs parry3d 0.31, {what} — {} ({} logical CPUs), load average {loadavg_start} → {}; \
         median of {rounds} interleaved rounds, {n} queries per row, single thread.",
        cpu_model(),
        std::thread::available_parallelism().map_or(1, |n| n.get()),
        loadavg()
    )
}

/// Reads `/proc/loadavg` (empty string where it does not exist).
pub fn loadavg() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_default()
}

/// The CPU model from `/proc/cpuinfo`.
pub fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|m| m.trim().to_string())
        })
        .unwrap_or_else(|| "unknown".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_odd_even_empty() {
        assert_eq!(median(&mut [3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&mut [4.0, 1.0, 2.0, 3.0]), 2.5);
        assert!(median(&mut []).is_nan());
    }

    #[test]
    fn measure_reports_hits_and_a_ratio() {
        // Two trivial passes: counts come back, times are positive, the table has the row.
        let mut cases = vec![Case {
            name: "toy".into(),
            n: 1000,
            collide: Box::new(|| (0..1000).filter(|i| black_box(*i) % 2 == 0).count()),
            parry: Box::new(|| (0..1000).filter(|i| black_box(*i) % 3 == 0).count()),
            parry_call: "toy".into(),
            direct: None,
        }];
        let rows = measure(&mut cases, 3, |_| {});
        assert_eq!(rows[0].collide_hits, 500);
        assert_eq!(rows[0].parry_hits, 334);
        assert!(rows[0].collide_ns > 0.0 && rows[0].parry_ns > 0.0);
        assert!(markdown(&rows).contains("| toy |"));
    }

    #[test]
    fn a_direct_pass_gets_its_column_and_the_ratio_takes_the_faster_parry() {
        // The direct pass does a third of the dispatching pass's work: it is the faster
        // parry3d column, and the ratio is taken against it.
        let work = |k: usize| move || (0..1000 * k).filter(|i| black_box(*i) % 7 == 0).count();
        let mut cases = vec![Case {
            name: "toy".into(),
            n: 1000,
            collide: Box::new(work(1)),
            parry: Box::new(work(30)),
            parry_call: "toy".into(),
            direct: Some(Direct {
                pass: Box::new(work(10)),
                call: "toy direct".into(),
            }),
        }];
        let rows = measure(&mut cases, 3, |_| {});
        let r = &rows[0];
        assert_eq!(r.parry_direct_hits, Some(1429));
        let d = r.parry_direct_ns.unwrap();
        assert_eq!(r.ratio, d.min(r.parry_ns) / r.collide_ns);
        let md = markdown(&rows);
        assert!(md.contains("(direct)") && md.contains("143 / 4286 / 1429 (1000)"));
    }
}
