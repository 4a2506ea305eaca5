//! Per-thread scratch lists: the per-frame paths (the world's narrow phase, SAT, EPA, contact
//! clipping) fill lists kept by each thread instead of new ones, so once the lists have grown
//! to the largest a thread needs, a frame allocates nothing.

use std::cell::RefCell;
use std::thread::LocalKey;

/// `f` with this thread's `T` behind `key`, or a new `T` when that one is in use (a call from
/// inside `f`, which then allocates as before).
pub(crate) fn with<T: Default + 'static, R>(
    key: &'static LocalKey<RefCell<T>>,
    f: impl FnOnce(&mut T) -> R,
) -> R {
    key.with(|cell| match cell.try_borrow_mut() {
        Ok(mut lists) => f(&mut lists),
        Err(_) => f(&mut T::default()),
    })
}
