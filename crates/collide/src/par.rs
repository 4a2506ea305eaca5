//! The crate's data parallelism in one place: on rayon's thread pool with the `parallel`
//! feature, in order on the calling thread without it.
//!
//! Every caller passes work whose result does not depend on how it is split or in which order
//! the pieces finish (each task owns its data; reductions are exact `min`/`max`), so both
//! builds give identical results.

/// `f` applied to every element in place (tasks of at least `MIN_TASK` elements: below that
/// the split costs more than it saves).
#[cfg(feature = "parallel")]
pub(crate) fn for_each_mut<T, F>(items: &mut [T], f: F)
where
    T: Send,
    F: Fn(&mut T) + Sync + Send,
{
    use rayon::prelude::*;
    items.par_iter_mut().with_min_len(MIN_TASK).for_each(f);
}

/// `a` and `b`, as two tasks that may run at once.
#[cfg(feature = "parallel")]
pub(crate) fn join<A, B, RA, RB>(a: A, b: B) -> (RA, RB)
where
    A: FnOnce() -> RA + Send,
    B: FnOnce() -> RB + Send,
    RA: Send,
    RB: Send,
{
    rayon::join(a, b)
}

/// `a` then `b`, on the calling thread.
#[cfg(not(feature = "parallel"))]
pub(crate) fn join<A, B, RA, RB>(a: A, b: B) -> (RA, RB)
where
    A: FnOnce() -> RA,
    B: FnOnce() -> RB,
{
    (a(), b())
}

/// `f` applied to every element in place, each element a task of its own: for a few coarse
/// tasks of uneven size.
#[cfg(feature = "parallel")]
pub(crate) fn for_each_task_mut<T, F>(items: &mut [T], f: F)
where
    T: Send,
    F: Fn(&mut T) + Sync + Send,
{
    use rayon::prelude::*;
    items.par_iter_mut().for_each(f);
}

/// `f` applied to every element in place, in order.
#[cfg(not(feature = "parallel"))]
pub(crate) fn for_each_task_mut<T, F>(items: &mut [T], f: F)
where
    F: Fn(&mut T),
{
    items.iter_mut().for_each(f);
}

/// The fewest elements one parallel task of [`for_each_mut`] takes.
#[cfg(feature = "parallel")]
const MIN_TASK: usize = 32;

/// `f` applied to every element in place, in order.
#[cfg(not(feature = "parallel"))]
pub(crate) fn for_each_mut<T, F>(items: &mut [T], f: F)
where
    F: Fn(&mut T),
{
    items.iter_mut().for_each(f);
}

/// `map` applied to chunks of `chunk` elements, the results combined by `reduce` starting from
/// `identity()`. `reduce` must be associative and commutative for the result not to depend on
/// the split (rayon combines the chunks as a tree, the serial build left to right).
#[cfg(feature = "parallel")]
pub(crate) fn map_reduce_chunks<T, R, M, I, C>(
    items: &[T],
    chunk: usize,
    map: M,
    identity: I,
    reduce: C,
) -> R
where
    T: Sync,
    R: Send,
    M: Fn(&[T]) -> R + Sync + Send,
    I: Fn() -> R + Sync + Send,
    C: Fn(R, R) -> R + Sync + Send,
{
    use rayon::prelude::*;
    items
        .par_chunks(chunk.max(1))
        .map(map)
        .reduce(identity, reduce)
}

/// `map` applied to chunks of `chunk` elements, the results combined by `reduce` starting from
/// `identity()`, left to right on the calling thread.
#[cfg(not(feature = "parallel"))]
pub(crate) fn map_reduce_chunks<T, R, M, I, C>(
    items: &[T],
    chunk: usize,
    map: M,
    identity: I,
    reduce: C,
) -> R
where
    M: Fn(&[T]) -> R,
    I: Fn() -> R,
    C: Fn(R, R) -> R,
{
    items.chunks(chunk.max(1)).map(map).fold(identity(), reduce)
}

/// `f` applied to every element, the `Some` results in element order.
#[cfg(feature = "parallel")]
pub(crate) fn filter_map<T, R, F>(items: &[T], f: F) -> Vec<R>
where
    T: Sync,
    R: Send,
    F: Fn(&T) -> Option<R> + Sync + Send,
{
    use rayon::prelude::*;
    items.par_iter().filter_map(f).collect()
}

/// `f` applied to every element, the `Some` results in element order.
#[cfg(not(feature = "parallel"))]
pub(crate) fn filter_map<T, R, F>(items: &[T], f: F) -> Vec<R>
where
    F: Fn(&T) -> Option<R>,
{
    items.iter().filter_map(f).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn for_each_mut_mutates_each_element_once_in_place() {
        // 10 000 elements: enough for rayon to split the work between threads.
        let mut v: Vec<(u64, u64)> = (0..10_000).map(|i| (i, 0)).collect();
        for_each_mut(&mut v, |x| {
            x.0 += 1;
            x.1 = x.0 * 2;
        });
        assert_eq!(v, (1..=10_000).map(|x| (x, x * 2)).collect::<Vec<_>>());
    }

    #[test]
    fn map_reduce_chunks_sums_and_takes_extremes() {
        let v: Vec<i64> = (-500..500).map(|i| i * 7 % 1013).collect();
        let sum = map_reduce_chunks(&v, 64, |c| c.iter().sum::<i64>(), || 0, |a, b| a + b);
        assert_eq!(sum, v.iter().sum::<i64>());
        let (lo, hi) = map_reduce_chunks(
            &v,
            7,
            |c| {
                c.iter()
                    .fold((i64::MAX, i64::MIN), |(l, h), &x| (l.min(x), h.max(x)))
            },
            || (i64::MAX, i64::MIN),
            |a, b| (a.0.min(b.0), a.1.max(b.1)),
        );
        assert_eq!(Some(&lo), v.iter().min());
        assert_eq!(Some(&hi), v.iter().max());
        // Empty input gives the identity; a zero chunk size is read as 1.
        assert_eq!(
            map_reduce_chunks(&[] as &[i64], 0, |c| c.len(), || 0, |a, b| a + b),
            0
        );
        assert_eq!(
            map_reduce_chunks(&v, 0, |c| c.len(), || 0, |a, b| a + b),
            v.len()
        );
    }
}
