//! The storage and iteration shared by the structure-of-arrays sets: elements in chunks of
//! [`LANES`], NaN padding after the last one, and the three ways a query's per-chunk bitmask
//! comes back (a `u64` bitmask, a callback per hit, a count). [`super::AabbSoa`] and
//! [`super::SphereSoa`] are this with their chunk type and their tests.

use super::{LayoutDefect, LANES};
use glam::Vec4;

/// One chunk of [`LANES`] elements in structure-of-arrays form.
pub(super) trait Chunk: Copy {
    /// The element a lane holds.
    type Item;
    /// Every lane NaN: the padding of the last chunk, which no query hits.
    const PADDING: Self;
    /// Writes lane `l`.
    fn set(&mut self, l: usize, item: &Self::Item);
    /// Reads lane `l`.
    fn get(&self, l: usize) -> Self::Item;
    /// Whether lane `l` is padding (all NaN).
    fn is_padding(&self, l: usize) -> bool;
    /// Whether the chunk's fast test needs no guard for this element (an AABB that is not
    /// inverted; a sphere whose squares can neither overflow nor all underflow): a set of
    /// regular elements takes the unguarded test, with the same answers.
    fn is_regular(item: &Self::Item) -> bool;
}

/// Elements `0..len` in chunks: element `i` is lane `i % LANES` of chunk `i / LANES`; the lanes
/// after the last element are [`Chunk::PADDING`].
#[derive(Clone, Debug)]
pub(super) struct Lanes<C> {
    chunks: Vec<C>,
    len: usize,
    /// How many elements are not [`Chunk::is_regular`].
    irregular: usize,
}

impl<C> Default for Lanes<C> {
    fn default() -> Lanes<C> {
        Lanes {
            chunks: Vec::new(),
            len: 0,
            irregular: 0,
        }
    }
}

impl<C: Chunk> Lanes<C> {
    /// Empty, with room for `n` elements.
    pub(super) fn with_capacity(n: usize) -> Lanes<C> {
        Lanes {
            chunks: Vec::with_capacity(n.div_ceil(LANES)),
            len: 0,
            irregular: 0,
        }
    }

    /// The elements of a slice, in order.
    pub(super) fn from_slice(items: &[C::Item]) -> Lanes<C> {
        let mut lanes = Lanes::with_capacity(items.len());
        for it in items {
            lanes.push(it);
        }
        lanes
    }

    /// Number of elements.
    #[inline]
    pub(super) fn len(&self) -> usize {
        self.len
    }

    /// `true` when every element is [`Chunk::is_regular`] (so is an empty set).
    #[inline]
    pub(super) fn all_regular(&self) -> bool {
        self.irregular == 0
    }

    /// Removes every element (keeps the memory).
    pub(super) fn clear(&mut self) {
        self.chunks.clear();
        self.len = 0;
        self.irregular = 0;
    }

    /// Appends an element and returns its index.
    pub(super) fn push(&mut self, item: &C::Item) -> usize {
        let i = self.len;
        if i % LANES == 0 {
            self.chunks.push(C::PADDING);
        }
        // The chunk exists: one was pushed above whenever `i` starts a new chunk.
        let last = self.chunks.len() - 1;
        self.chunks[last].set(i % LANES, item);
        self.len += 1;
        self.irregular += usize::from(!C::is_regular(item));
        i
    }

    /// Element `i`, or `None` past the end.
    #[inline]
    pub(super) fn get(&self, i: usize) -> Option<C::Item> {
        (i < self.len).then(|| self.chunks[i / LANES].get(i % LANES))
    }

    /// Replaces element `i`; `false` (and nothing changed) when `i` is past the end.
    pub(super) fn set(&mut self, i: usize, item: &C::Item) -> bool {
        if i >= self.len {
            return false;
        }
        let chunk = &mut self.chunks[i / LANES];
        self.irregular -= usize::from(!C::is_regular(&chunk.get(i % LANES)));
        self.irregular += usize::from(!C::is_regular(item));
        chunk.set(i % LANES, item);
        true
    }

    /// The layout invariants: enough chunks for `len`, padding in every lane past `len`.
    pub(super) fn validate(&self) -> Result<(), LayoutDefect> {
        let want = self.len.div_ceil(LANES);
        if self.chunks.len() != want {
            return Err(LayoutDefect::ChunkCount {
                chunks: self.chunks.len(),
                len: self.len,
            });
        }
        match (self.len..self.chunks.len() * LANES)
            .find(|&i| !self.chunks[i / LANES].is_padding(i % LANES))
        {
            Some(lane) => Err(LayoutDefect::Padding { lane }),
            None => Ok(()),
        }
    }

    /// The chunks, for queries that need more per chunk than its bits.
    #[inline]
    pub(super) fn chunks(&self) -> &[C] {
        &self.chunks
    }

    /// Writes every chunk's `bits` into a `u64` bitmask (eight chunks per word; bit `i % 64`
    /// of `mask[i / 64]` is element `i`) and returns the number of set bits. Extra words are
    /// zeroed; with fewer words only the chunks that fit are tested.
    #[inline(always)]
    pub(super) fn mask(&self, mask: &mut [u64], mut bits: impl FnMut(&C) -> u32) -> usize {
        let mut count = 0;
        let mut groups = self.chunks.chunks(8);
        for word in mask.iter_mut() {
            let mut acc = 0u64;
            if let Some(group) = groups.next() {
                for (k, chunk) in group.iter().enumerate() {
                    acc |= u64::from(bits(chunk)) << (k * LANES);
                }
            }
            count += acc.count_ones() as usize;
            *word = acc;
        }
        count
    }

    /// Calls `f(i)` for every set bit `i` of the chunks' `bits`, in increasing order.
    #[inline(always)]
    pub(super) fn for_each(&self, mut bits: impl FnMut(&C) -> u32, mut f: impl FnMut(usize)) {
        for (c, chunk) in self.chunks.iter().enumerate() {
            for_each_bit(c, bits(chunk), &mut f);
        }
    }

    /// The number of set bits over every chunk's `bits`.
    #[inline(always)]
    pub(super) fn count(&self, mut bits: impl FnMut(&C) -> u32) -> usize {
        self.chunks
            .iter()
            .map(|chunk| bits(chunk).count_ones() as usize)
            .sum()
    }
}

/// Reads lane `l` (0..8) of a pair of `Vec4`s.
#[inline(always)]
pub(super) fn lane(v: &[Vec4; 2], l: usize) -> f32 {
    v[l / 4][l % 4]
}

/// Writes lane `l` (0..8) of a pair of `Vec4`s.
#[inline(always)]
pub(super) fn set_lane(v: &mut [Vec4; 2], l: usize, x: f32) {
    v[l / 4][l % 4] = x;
}

/// Calls `f` with the index of every set bit of chunk `chunk`'s 8-bit mask, lowest first.
#[inline(always)]
pub(super) fn for_each_bit(chunk: usize, mut bits: u32, f: &mut impl FnMut(usize)) {
    while bits != 0 {
        let lane = bits.trailing_zeros() as usize;
        f(chunk * LANES + lane);
        bits &= bits - 1;
    }
}

/// The container methods every SoA set has, generated for `$soa` (a struct with one field
/// `lanes: Lanes<chunk>`) holding `$item`s; `$what` is their plural in the docs ("boxes").
/// The set-specific constructor (`from_aabbs`, `from_spheres`) and the queries are written
/// beside each type.
macro_rules! soa_container {
    ($soa:ident, $item:ty, $what:literal) => {
        impl $soa {
            /// An empty set.
            #[must_use]
            pub fn new() -> $soa {
                $soa::default()
            }

            #[doc = concat!("An empty set with room for `n` ", $what, ".")]
            #[must_use]
            pub fn with_capacity(n: usize) -> $soa {
                $soa {
                    lanes: Lanes::with_capacity(n),
                }
            }

            #[doc = concat!("Number of ", $what, ".")]
            #[inline]
            #[must_use]
            pub fn len(&self) -> usize {
                self.lanes.len()
            }

            #[doc = concat!("`true` when there are no ", $what, ".")]
            #[inline]
            #[must_use]
            pub fn is_empty(&self) -> bool {
                self.lanes.len() == 0
            }

            /// Removes every element (keeps the memory).
            pub fn clear(&mut self) {
                self.lanes.clear();
            }

            /// Appends an element and returns its index.
            pub fn push(&mut self, item: &$item) -> usize {
                self.lanes.push(item)
            }

            /// Element `i`, or `None` past the end.
            #[inline]
            #[must_use]
            pub fn get(&self, i: usize) -> Option<$item> {
                self.lanes.get(i)
            }

            /// Replaces element `i`; returns `false` (and changes nothing) when `i` is past
            /// the end.
            pub fn set(&mut self, i: usize, item: &$item) -> bool {
                self.lanes.set(i, item)
            }

            /// Checks the layout invariants: enough chunks for `len`, NaN in every lane past
            /// `len`. Returns the first violation.
            pub fn validate(&self) -> Result<(), $crate::batch::LayoutDefect> {
                self.lanes.validate()
            }
        }
    };
}
pub(super) use soa_container;
