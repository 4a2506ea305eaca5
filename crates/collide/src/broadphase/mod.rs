//! Broad phases: which pairs of many bodies have overlapping boxes.
//!
//! One trait, [`BroadPhase`], three implementations:
//! - [`SweepAndPrune`]: sorted endpoint lists on three axes, re-sorted each frame by insertion
//!   sort, with the pair set maintained by the endpoint swaps (Baraff 1992; Cohen, Lin, Manocha
//!   and Ponamgi, *I-COLLIDE*, 1995). Best when bodies move a little each frame.
//! - [`DynamicBvh`]: a four-wide tree of fattened boxes whose leaves are buckets of up to eight
//!   proxies, every box stored as `Vec4` lanes and tested four at a time; bulk-loaded in Morton
//!   order (radix sort), refitted in place, edited between rebuilds as an R-tree (Guttman 1984:
//!   least-growth descent, splits of full buckets and nodes), proxies enlarged in place when
//!   they leave their fat boxes (Box2D's `b2DynamicTree` idea, Catto), ray and box queries, and a
//!   persistent list of fat-box pairs updated from the proxies that left their fat boxes (or
//!   recomputed by one self-traversal under large motion). The fastest of the three at every
//!   size measured (1k to 100k boxes).
//! - [`BruteForce`]: every pair, every frame; the reference the tests compare against.
//!
//! The three agree exactly: after [`BroadPhase::update_pairs`], the pair set is every
//! `(a, b)` with `a < b` whose boxes touch or overlap (`a.min <= b.max && b.min <= a.max` on
//! every axis, touching counts) and whose [`CollisionGroups`] allow the pair
//! ([`CollisionGroups::allows`]). Boxes with a NaN or infinite coordinate, or with
//! `min > max` on an axis, are rejected with [`BroadPhaseError::InvalidAabb`]; any finite
//! box works, up to `±f32::MAX` coordinates.
//!
//! Ids are handed out by the structure ([`ProxyId`]), the lowest-numbered free id first in a
//! fresh structure and the most recently released first after removals, identically in all
//! three implementations; a removed id is released for reuse only at the next
//! [`BroadPhase::update_pairs`], so a pair output never mixes a removed proxy with a new one.
//!
//! # Example
//!
//! ```rust
//! use collide::broadphase::{BroadPhase, CollisionGroups, DynamicBvh};
//! use collide::shapes::Aabb;
//! use collide::Vec3;
//!
//! let unit = |x: f32| Aabb::from_center_half_extents(Vec3::new(x, 0.0, 0.0), Vec3::splat(0.5));
//! let mut bp = DynamicBvh::new();
//! let a = bp.insert(unit(0.0), CollisionGroups::ALL)?;
//! let b = bp.insert(unit(3.0), CollisionGroups::ALL)?;
//! // Overlaps `a`, but its groups accept nothing: never paired.
//! bp.insert(unit(0.2), CollisionGroups::NONE)?;
//!
//! let mut pairs = Vec::new();
//! bp.update_pairs(&mut pairs); // once per frame, after the frame's updates
//! assert!(pairs.is_empty());
//! bp.update(b, unit(1.0))?; // b moves until its face touches a's (x = 0.5): touching counts
//! bp.update_pairs(&mut pairs);
//! assert_eq!(pairs, [(a, b)]);
//! bp.validate().unwrap();
//! # Ok::<(), collide::broadphase::BroadPhaseError>(())
//! ```

mod brute;
mod bvh;
pub(crate) mod lanes;
mod sap;
pub(crate) mod static_tree;
pub(crate) mod walk_stack;

pub use brute::BruteForce;
pub use bvh::DynamicBvh;
pub use sap::SweepAndPrune;
pub use static_tree::TreeDefect;

use crate::math::{Vec3, Vec3A};
use crate::shapes::{Aabb, Ray};
use std::collections::HashSet;
use std::fmt;
use std::hash::{BuildHasherDefault, Hasher};

/// The id of a box inside a broad phase (an index into its proxy table).
pub type ProxyId = u32;

/// Which groups a proxy belongs to and which groups it may collide with (32 bits each).
///
/// A pair `(a, b)` is reported only when `(a.memberships & b.filter) != 0` and
/// `(b.memberships & a.filter) != 0` — both must accept the other (the rule of Box2D's
/// category/mask bits and of parry's `InteractionGroups`). The default is all bits in both,
/// which collides with everything.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct CollisionGroups {
    /// The groups this proxy belongs to.
    pub memberships: u32,
    /// The groups this proxy may touch.
    pub filter: u32,
}

impl Default for CollisionGroups {
    /// Member of every group, collides with every group.
    fn default() -> Self {
        CollisionGroups::ALL
    }
}

impl CollisionGroups {
    /// Member of every group, collides with every group.
    pub const ALL: CollisionGroups = CollisionGroups {
        memberships: u32::MAX,
        filter: u32::MAX,
    };
    /// Member of no group, collides with nothing.
    pub const NONE: CollisionGroups = CollisionGroups {
        memberships: 0,
        filter: 0,
    };

    /// The groups with the given membership and filter bits.
    #[inline]
    #[must_use]
    pub const fn new(memberships: u32, filter: u32) -> CollisionGroups {
        CollisionGroups {
            memberships,
            filter,
        }
    }

    /// `true` when each of the two accepts the other (symmetric by construction).
    #[inline]
    #[must_use]
    pub const fn allows(self, other: CollisionGroups) -> bool {
        (self.memberships & other.filter) != 0 && (other.memberships & self.filter) != 0
    }
}

/// What a broad phase refuses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BroadPhaseError {
    /// The box has a NaN or infinite coordinate, or `min > max` on some axis; build it with
    /// [`Aabb::new`] from finite corners.
    InvalidAabb,
    /// No live proxy has this id (never inserted, or already removed).
    UnknownProxy(ProxyId),
    /// Every one of the 2^31 ids is in use.
    TooManyProxies,
}

impl fmt::Display for BroadPhaseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BroadPhaseError::InvalidAabb => write!(
                f,
                "bounding box is not finite or has min > max; give finite corners"
            ),
            BroadPhaseError::UnknownProxy(id) => {
                write!(
                    f,
                    "no proxy with id {id} (never inserted or already removed)"
                )
            }
            BroadPhaseError::TooManyProxies => write!(f, "broad phase is full (2^31 proxies)"),
        }
    }
}

impl std::error::Error for BroadPhaseError {}

/// Where a broad phase's invariant is broken: the numbers of the place, the counts found
/// and recorded, or the values that disagree. [`BroadPhaseDefect::what`] names these fields
/// in braces.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum DefectSite {
    /// The structure as a whole; no number.
    Whole,
    /// A tree node (also the root, or a node on the free list).
    Node {
        /// The node's index.
        node: u32,
    },
    /// A tree node with the wrong number of children.
    Children {
        /// The node's index.
        node: u32,
        /// How many children it has.
        count: usize,
    },
    /// A child slot of a tree node.
    Slot {
        /// The node's index.
        node: u32,
        /// The slot's index within the node.
        slot: usize,
    },
    /// A child in a slot of a tree node.
    Child {
        /// The parent node's index.
        node: u32,
        /// The slot's index within the parent.
        slot: usize,
        /// The child node's index, or the child bucket's index.
        child: u32,
    },
    /// A leaf bucket of a tree (also one on the free list).
    Bucket {
        /// The bucket's index.
        bucket: u32,
    },
    /// A leaf bucket with the wrong number of proxies.
    Lanes {
        /// The bucket's index.
        bucket: u32,
        /// How many proxies it has.
        count: usize,
    },
    /// A lane of a leaf bucket.
    Lane {
        /// The bucket's index.
        bucket: u32,
        /// The lane's index within the bucket.
        lane: u32,
    },
    /// The proxy in a lane of a leaf bucket.
    LaneProxy {
        /// The bucket's index.
        bucket: u32,
        /// The lane's index within the bucket.
        lane: u32,
        /// The proxy in the lane.
        proxy: ProxyId,
    },
    /// A proxy.
    Proxy {
        /// The proxy's id.
        proxy: ProxyId,
    },
    /// A reported pair of proxies.
    Pair {
        /// The first proxy of the pair.
        a: ProxyId,
        /// The second proxy of the pair.
        b: ProxyId,
    },
    /// A sorted axis of endpoints.
    Axis {
        /// The axis (0, 1 or 2).
        axis: usize,
    },
    /// An endpoint on a sorted axis.
    Endpoint {
        /// The axis (0, 1 or 2).
        axis: usize,
        /// The endpoint's position on the axis.
        endpoint: usize,
        /// The endpoint's tag (proxy id and min/max bit).
        tag: u32,
    },
    /// Two neighbouring endpoints on a sorted axis.
    Endpoints {
        /// The axis (0, 1 or 2).
        axis: usize,
        /// The position of the first endpoint.
        first: usize,
        /// The position of the second endpoint.
        second: usize,
    },
    /// An endpoint's value against its proxy's box.
    Value {
        /// The axis (0, 1 or 2).
        axis: usize,
        /// The endpoint's proxy.
        proxy: ProxyId,
        /// The endpoint's value.
        value: f32,
        /// The value the proxy's box gives.
        expected: f32,
    },
    /// A count found by walking the structure against the one it records.
    Count {
        /// The count found.
        found: usize,
        /// The count recorded (or found another way).
        recorded: usize,
    },
    /// A count found on a sorted axis against the one recorded.
    AxisCount {
        /// The axis (0, 1 or 2).
        axis: usize,
        /// The count found.
        found: usize,
        /// The count recorded.
        recorded: usize,
    },
    /// Proxies in the tree and pending against the live ones.
    Proxies {
        /// Proxies found in the tree.
        in_tree: usize,
        /// Proxies waiting to enter the tree.
        pending: usize,
        /// Live proxies recorded.
        live: usize,
    },
    /// A pool of tree nodes or buckets: used and free against the total.
    Pool {
        /// The pool's size.
        total: usize,
        /// Entries reached from the root.
        used: usize,
        /// Entries on the free list.
        free: usize,
    },
}

impl DefectSite {
    /// Writes the field called `name`; `None` when this site has no such field.
    fn write_field(&self, name: &str, f: &mut fmt::Formatter<'_>) -> Option<fmt::Result> {
        use DefectSite::*;
        Some(match (*self, name) {
            (Node { node } | Children { node, .. } | Slot { node, .. }, "node")
            | (Child { node, .. }, "node") => write!(f, "{node}"),
            (Children { count, .. } | Lanes { count, .. }, "count") => write!(f, "{count}"),
            (Slot { slot, .. } | Child { slot, .. }, "slot") => write!(f, "{slot}"),
            (Child { child, .. }, "child") => write!(f, "{child}"),
            (
                Bucket { bucket }
                | Lanes { bucket, .. }
                | Lane { bucket, .. }
                | LaneProxy { bucket, .. },
                "bucket",
            ) => write!(f, "{bucket}"),
            (Lane { lane, .. } | LaneProxy { lane, .. }, "lane") => write!(f, "{lane}"),
            (LaneProxy { proxy, .. } | Proxy { proxy } | Value { proxy, .. }, "proxy") => {
                write!(f, "{proxy}")
            }
            (Pair { a, .. }, "a") => write!(f, "{a}"),
            (Pair { b, .. }, "b") => write!(f, "{b}"),
            (
                Axis { axis }
                | Endpoint { axis, .. }
                | Endpoints { axis, .. }
                | Value { axis, .. }
                | AxisCount { axis, .. },
                "axis",
            ) => write!(f, "{axis}"),
            (Endpoint { endpoint, .. }, "endpoint") => write!(f, "{endpoint}"),
            (Endpoint { tag, .. }, "tag") => write!(f, "{tag}"),
            (Endpoints { first, .. }, "first") => write!(f, "{first}"),
            (Endpoints { second, .. }, "second") => write!(f, "{second}"),
            (Value { value, .. }, "value") => write!(f, "{value}"),
            (Value { expected, .. }, "expected") => write!(f, "{expected}"),
            (Count { found, .. } | AxisCount { found, .. }, "found") => write!(f, "{found}"),
            (Count { recorded, .. } | AxisCount { recorded, .. }, "recorded") => {
                write!(f, "{recorded}")
            }
            (Proxies { in_tree, .. }, "in_tree") => write!(f, "{in_tree}"),
            (Proxies { pending, .. }, "pending") => write!(f, "{pending}"),
            (Proxies { live, .. }, "live") => write!(f, "{live}"),
            (Pool { total, .. }, "total") => write!(f, "{total}"),
            (Pool { used, .. }, "used") => write!(f, "{used}"),
            (Pool { free, .. }, "free") => write!(f, "{free}"),
            _ => return None,
        })
    }
}

/// The first broken invariant [`BroadPhase::validate`] finds: where, and what (a fixed
/// text).
///
/// `what` names the fields of `site` in braces; [`Display`](fmt::Display) fills them in:
///
/// ```
/// use collide::broadphase::{BroadPhaseDefect, DefectSite};
/// let d = BroadPhaseDefect {
///     site: DefectSite::Slot { node: 5, slot: 2 },
///     what: "node {node}: empty slot {slot} is not empty",
/// };
/// assert_eq!(d.to_string(), "node 5: empty slot 2 is not empty");
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BroadPhaseDefect {
    /// Where the invariant is broken.
    pub site: DefectSite,
    /// What is wrong there, naming the fields of `site` in braces.
    pub what: &'static str,
}

impl BroadPhaseDefect {
    /// The defect `what` at `site`.
    pub(crate) const fn new(site: DefectSite, what: &'static str) -> BroadPhaseDefect {
        BroadPhaseDefect { site, what }
    }
}

impl fmt::Display for BroadPhaseDefect {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut rest = self.what;
        while let Some(open) = rest.find('{') {
            let Some(len) = rest[open..].find('}') else {
                break;
            };
            f.write_str(&rest[..open])?;
            let field = &rest[open..=open + len];
            match self.site.write_field(&field[1..len], f) {
                Some(r) => r?,
                None => f.write_str(field)?,
            }
            rest = &rest[open + len + 1..];
        }
        f.write_str(rest)
    }
}

impl std::error::Error for BroadPhaseDefect {}

/// The common interface of [`SweepAndPrune`], [`DynamicBvh`] and [`BruteForce`].
///
/// Edits ([`insert`](Self::insert), [`remove`](Self::remove), [`update`](Self::update)) may
/// come in any order at any time; [`update_pairs`](Self::update_pairs) then brings the
/// structure up to date and reports the complete pair set. Queries
/// ([`query_aabb`](Self::query_aabb), [`ray_cast`](Self::ray_cast)) see the boxes as last
/// given, edits included.
pub trait BroadPhase {
    /// Adds a box; returns its id. Rejects a NaN/infinite/inverted box
    /// ([`BroadPhaseError::InvalidAabb`]). A flat or point box is valid.
    fn insert(&mut self, aabb: Aabb, groups: CollisionGroups) -> Result<ProxyId, BroadPhaseError>;

    /// Removes a proxy; its id is reused after the next [`update_pairs`](Self::update_pairs).
    fn remove(&mut self, id: ProxyId) -> Result<(), BroadPhaseError>;

    /// Moves a proxy's box. On an invalid box the proxy keeps its old box and the error is
    /// returned.
    fn update(&mut self, id: ProxyId, aabb: Aabb) -> Result<(), BroadPhaseError>;

    /// Brings the structure up to date and writes into `out` (cleared first) every pair
    /// `(a, b)`, `a < b`, of live proxies whose boxes touch or overlap and whose groups allow
    /// each other. The order of `out` is unspecified; sort it when order matters.
    fn update_pairs(&mut self, out: &mut Vec<(ProxyId, ProxyId)>);

    /// Calls `f(id)` for each live proxy whose box touches or overlaps `aabb` (touching
    /// counts), in no particular order.
    ///
    /// What `f` returns decides whether the query goes on: **`true` = continue** with the next
    /// proxy, **`false` = stop now** (no further calls). Return `true` from every call to
    /// visit them all. A NaN `aabb` touches nothing.
    ///
    /// ```rust
    /// use collide::broadphase::{BroadPhase, CollisionGroups, SweepAndPrune};
    /// use collide::shapes::Aabb;
    /// use collide::Vec3;
    ///
    /// let mut bp = SweepAndPrune::new();
    /// for x in [0.0, 2.0, 4.0] {
    ///     let b = Aabb::from_center_half_extents(Vec3::new(x, 0.0, 0.0), Vec3::splat(0.5));
    ///     bp.insert(b, CollisionGroups::ALL)?;
    /// }
    /// let query = Aabb::new(Vec3::new(-1.0, -1.0, -1.0), Vec3::new(2.5, 1.0, 1.0));
    /// // Every box in the query region: continue after each (return true).
    /// let mut all = Vec::new();
    /// bp.query_aabb(&query, &mut |id| {
    ///     all.push(id);
    ///     true
    /// });
    /// all.sort_unstable();
    /// assert_eq!(all, [0, 1]);
    /// // "Is anything there?": stop at the first (return false).
    /// let mut calls = 0;
    /// bp.query_aabb(&query, &mut |_| {
    ///     calls += 1;
    ///     false
    /// });
    /// assert_eq!(calls, 1);
    /// # Ok::<(), collide::broadphase::BroadPhaseError>(())
    /// ```
    fn query_aabb(&self, aabb: &Aabb, f: &mut dyn FnMut(ProxyId) -> bool);

    /// Calls `f(id, box_t)` for live proxies whose **box** the ray enters within the current
    /// bound (at first `max_t`), in no particular order, and lets `f` lower the bound.
    ///
    /// The arguments: `id`, the proxy; `box_t`, where the ray enters the proxy's *box* (`0`
    /// when the origin is inside it), in units of `|ray.dir|` (the ray's point is
    /// `origin + t · dir`). `box_t` is **not** a hit on the object in the box: that object
    /// may be hit later along the ray, or not at all. Test the object yourself.
    ///
    /// What `f` returns is the **bound for the rest of the search**: boxes the ray enters only
    /// beyond it may be skipped. Return
    /// - the bound you were searching with (the `max_t` you passed in, or the `t` of your
    ///   nearest exact hit so far) to leave the search as it was;
    /// - the `t` of a new nearest **exact** hit on the object, to skip whatever lies behind it;
    /// - a negative number (or NaN) to stop now (no further calls).
    ///
    /// Never return `box_t` for an object you did not hit exactly at `box_t`: every box
    /// entered beyond it is then skipped, though its object may be nearer than this one's
    /// (the box of a large round or slanted object starts well before the object does), and
    /// a line of sight sees through the floor. Calls do not come nearest-first, so a
    /// nearest-hit search keeps its best exact hit itself, as below. A ray with a NaN
    /// component hits nothing; a zero direction enters the boxes containing its origin.
    ///
    /// ```rust
    /// use collide::broadphase::{BroadPhase, BruteForce, CollisionGroups, ProxyId};
    /// use collide::raycast;
    /// use collide::shapes::{Aabb, Ray, Sphere};
    /// use collide::Vec3;
    ///
    /// // A boulder above the line of sight (its box reaches down across the line, and the
    /// // ray grazes the boulder itself only at x ≈ 2.94) and a post at x = 2 in front of it.
    /// let objects = [
    ///     Sphere::new(Vec3::new(5.0, 4.0, 0.0), 4.5),
    ///     Sphere::new(Vec3::new(2.0, 0.0, 0.0), 0.1),
    /// ];
    /// let mut bp = BruteForce::new(); // visits ids in order, so the boulder comes first
    /// for s in &objects {
    ///     let b = Aabb::from_center_half_extents(s.center, Vec3::splat(s.radius));
    ///     bp.insert(b, CollisionGroups::ALL)?;
    /// }
    /// let ray = Ray::new(Vec3::ZERO, Vec3::X);
    ///
    /// // Right: test the object, keep the nearest exact hit, return its t as the bound.
    /// let mut nearest: Option<(ProxyId, f32)> = None;
    /// bp.ray_cast(&ray, 100.0, &mut |id, _box_t| {
    ///     let bound = nearest.map_or(100.0, |(_, t)| t);
    ///     match raycast::sphere(&ray, &objects[id as usize], bound) {
    ///         Some(hit) => {
    ///             nearest = Some((id, hit.t));
    ///             hit.t
    ///         }
    ///         None => bound, // missed: keep searching with the same bound
    ///     }
    /// });
    /// let (id, t) = nearest.unwrap();
    /// assert_eq!(id, 1); // the post
    /// assert!((t - 1.9).abs() < 1e-5);
    ///
    /// // Wrong: returning box_t clips the search at the boulder's box (entered at x = 0.5),
    /// // so the post's box (entered at 1.9) is never visited and the boulder is "nearest".
    /// let mut seen = Vec::new();
    /// bp.ray_cast(&ray, 100.0, &mut |id, box_t| {
    ///     seen.push(id);
    ///     box_t
    /// });
    /// assert_eq!(seen, [0]);
    /// # Ok::<(), collide::broadphase::BroadPhaseError>(())
    /// ```
    fn ray_cast(&self, ray: &Ray, max_t: f32, f: &mut dyn FnMut(ProxyId, f32) -> f32);

    /// A box moving by `motion`: calls `f(id, toi)` with every proxy whose box it meets at a
    /// time of impact `toi` in `[0, max_t]` (units of `motion`; 0 when they touch or overlap
    /// at the start) within the current bound, with the same contract as
    /// [`BroadPhase::ray_cast`]: `f` returns the bound for the rest of the walk (the given
    /// `toi` is where the proxy's box is met, not a bound). A NaN or empty box, or a NaN `motion` or `max_t`, meets nothing.
    ///
    /// The default walks [`BroadPhase::query_aabb`] over the swept box and visits its proxies
    /// in order of `t`; a tree walks itself nearest first.
    fn cast_aabb(
        &self,
        aabb: &Aabb,
        motion: Vec3,
        max_t: f32,
        f: &mut dyn FnMut(ProxyId, f32) -> f32,
    ) {
        if !(aabb.is_finite() && !aabb.is_empty() && motion.is_finite() && max_t >= 0.0) {
            return;
        }
        let (center, half) = (aabb.center(), aabb.half_extents());
        let end = Aabb::new(aabb.min + motion * max_t, aabb.max + motion * max_t);
        let mut met = Vec::new();
        let inv = motion.recip();
        self.query_aabb(&aabb.union(&end), &mut |id| {
            if let Some(b) = self.aabb(id) {
                let grown = Aabb::new(b.min - half, b.max + half);
                if let Some(t) = ray_box_entry(center, motion, inv, &grown, max_t) {
                    met.push((t, id));
                }
            }
            true
        });
        met.sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        let mut bound = max_t;
        for (t, id) in met {
            if t > bound {
                break;
            }
            bound = f(id, t);
            if bound.is_nan() || bound < 0.0 {
                return;
            }
        }
    }

    /// The box last given for a live proxy; `None` for an unknown id.
    fn aabb(&self, id: ProxyId) -> Option<Aabb>;

    /// Number of live proxies.
    fn len(&self) -> usize;

    /// `true` when there are no live proxies.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Checks every internal invariant; `Err` names the first one broken. For tests.
    fn validate(&self) -> Result<(), BroadPhaseDefect>;
}

/// `true` when the box is acceptable to a broad phase: finite corners, `min <= max`.
#[inline]
pub(crate) fn check_aabb(aabb: &Aabb) -> Result<(), BroadPhaseError> {
    let (lo, hi) = (Vec3A::from(aabb.min), Vec3A::from(aabb.max));
    if (lo.is_finite_mask() & hi.is_finite_mask() & lo.cmple(hi)).all() {
        Ok(())
    } else {
        Err(BroadPhaseError::InvalidAabb)
    }
}

/// Touching counts: `a.min <= b.max && b.min <= a.max` on every axis. NaN gives `false`.
#[inline]
pub(crate) fn boxes_touch(a: &Aabb, b: &Aabb) -> bool {
    a.min.cmple(b.max).all() && b.min.cmple(a.max).all()
}

/// Trees whose nodes (and buckets) take more than this many bytes prefetch the children they
/// will visit ([`prefetch`]): about half a common L2 cache, beyond which the tree no longer
/// stays cached between queries next to the bodies they read. On the scene-query benchmark
/// (`compare_queries`, two trees of 500 to 50,000 bodies each), prefetching in every tree
/// paid only in the 100,000-body scene (rays 0.78x → 0.90x of parry3d) and cost 2–5 % in
/// the smaller ones, whose trees stay cached.
pub(crate) const PREFETCH_BYTES: usize = 512 * 1024;

/// Asks the cache to start loading the lines of `*r` (all of them, for a value of up to four
/// lines) without waiting for them: a tree walk calls it on the children it will visit later,
/// so their loads overlap the walk of the nearer child instead of following one another. A
/// hint only: no effect on results, and none on targets other than x86-64.
#[inline(always)]
pub(crate) fn prefetch<T>(r: &T) {
    prefetch_lines(r, 4);
}

/// [`prefetch`] of the first `lines` cache lines of `*r` (at most its own).
#[inline(always)]
pub(crate) fn prefetch_lines<T>(r: &T, lines: usize) {
    #[cfg(target_arch = "x86_64")]
    {
        use core::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        let p = (r as *const T).cast::<i8>();
        let lines = std::mem::size_of::<T>().div_ceil(64).min(lines);
        for k in 0..lines {
            // SAFETY: a prefetch never faults and changes no program state (it only warms
            // the cache), and `p + 64·k` lies within (or at most 63 bytes past) `*r`.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(p.wrapping_add(64 * k)) };
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = (r, lines);
}

/// [`prefetch`] of the cache lines `items` spans (four at most).
#[inline(always)]
pub(crate) fn prefetch_slice<T>(items: &[T]) {
    #[cfg(target_arch = "x86_64")]
    {
        use core::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        let p = items.as_ptr().cast::<i8>();
        let bytes = std::mem::size_of_val(items);
        let first = p as usize / 64;
        let last = (p as usize + bytes.max(1) - 1) / 64;
        for k in 0..=(last - first).min(3) {
            // SAFETY: a prefetch never faults and changes no program state (it only warms
            // the cache); each address is in a line `items` touches.
            unsafe { _mm_prefetch::<_MM_HINT_T0>(p.wrapping_add(64 * k)) };
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = items;
}

/// Slab test (Kay and Kajiya 1986; Ericson, RTCD §5.3.3): the `t` in `[0, max_t]` at which
/// `origin + t·dir` enters the box, `0` when the origin is inside; `None` when it misses, the
/// box lies beyond `max_t`, or anything is NaN. `inv_dir` is `1/dir` per axis (±inf for a zero
/// component, which the `origin` range check handles).
#[inline]
pub(crate) fn ray_box_entry(
    origin: Vec3,
    dir: Vec3,
    inv_dir: Vec3,
    aabb: &Aabb,
    max_t: f32,
) -> Option<f32> {
    if !(origin.is_finite() && dir.is_finite() && max_t >= 0.0) {
        return None;
    }
    // The three slabs at once when every `1/dir` and every slab distance is finite: the
    // same operations as the loop below, which that case takes without a branch (an interval
    // that empties at one axis stays empty), so the same result.
    let (o, inv) = (Vec3A::from(origin), Vec3A::from(inv_dir));
    let ta = (Vec3A::from(aabb.min) - o) * inv;
    let tb = (Vec3A::from(aabb.max) - o) * inv;
    if dir.cmpne(Vec3::ZERO).all() && inv.is_finite() && ta.is_finite() && tb.is_finite() {
        let near = ta.min(tb).max_element().max(0.0);
        let far = ta.max(tb).min_element().min(max_t);
        return (near <= far).then_some(near);
    }
    let mut t0 = 0.0f32;
    let mut t1 = max_t;
    for k in 0..3 {
        if dir[k] == 0.0 || !inv_dir[k].is_finite() {
            // Parallel to the slab (or so nearly that 1/dir overflows): inside it for all t
            // or never.
            if origin[k] < aabb.min[k] || origin[k] > aabb.max[k] {
                return None;
            }
            continue;
        }
        // origin + t·dir = min (resp. max) ⇒ t = (min − origin)/dir.
        let (mut ta, mut tb) = (
            (aabb.min[k] - origin[k]) * inv_dir[k],
            (aabb.max[k] - origin[k]) * inv_dir[k],
        );
        if !(ta.is_finite() && tb.is_finite()) {
            // `min − origin` overflowed (a box near f32::MAX seen from the far side of the
            // origin): the same formula in f64, whose range holds every such difference.
            let (o, d) = (f64::from(origin[k]), f64::from(dir[k]));
            ta = ((f64::from(aabb.min[k]) - o) / d) as f32;
            tb = ((f64::from(aabb.max[k]) - o) / d) as f32;
        }
        let (near, far) = if ta <= tb { (ta, tb) } else { (tb, ta) };
        // A NaN `near`/`far` fails both comparisons and leaves the interval as it was.
        if near > t0 {
            t0 = near;
        }
        if far < t1 {
            t1 = far;
        }
        if t0.is_nan() || t1.is_nan() || t0 > t1 {
            return None;
        }
    }
    Some(t0)
}

/// Hands out proxy ids: the lowest never-used id, else the most recently released one.
///
/// Shared by the three broad phases so the same edit sequence yields the same ids in each.
/// Removed ids wait in `pending` until [`IdPool::release_pending`] (called by `update_pairs`).
#[derive(Clone, Debug, Default)]
pub(crate) struct IdPool {
    /// Ids ready for reuse, reused last-in first-out.
    free: Vec<ProxyId>,
    /// Ids removed since the last `update_pairs`.
    pending: Vec<ProxyId>,
    /// One past the largest id ever handed out.
    next: u32,
}

/// Ids are `< 2^31` so a tag `id << 1 | bit` fits in a `u32`.
pub(crate) const MAX_PROXIES: u32 = 1 << 31;

impl IdPool {
    /// A new id, or `TooManyProxies`.
    pub(crate) fn alloc(&mut self) -> Result<ProxyId, BroadPhaseError> {
        if let Some(id) = self.free.pop() {
            return Ok(id);
        }
        if self.next >= MAX_PROXIES {
            return Err(BroadPhaseError::TooManyProxies);
        }
        self.next += 1;
        Ok(self.next - 1)
    }

    /// Marks `id` removed; reusable after `release_pending`.
    pub(crate) fn remove(&mut self, id: ProxyId) {
        self.pending.push(id);
    }

    /// Makes the ids removed since the last call reusable.
    pub(crate) fn release_pending(&mut self) {
        self.free.append(&mut self.pending);
    }

    /// One past the largest id ever handed out (the size of per-id tables).
    pub(crate) fn capacity(&self) -> usize {
        self.next as usize
    }

    /// The ids removed but not yet released.
    pub(crate) fn pending(&self) -> &[ProxyId] {
        &self.pending
    }
}

/// Unordered pair key: smaller id in the high half.
#[inline]
pub(crate) fn pair_key(a: ProxyId, b: ProxyId) -> u64 {
    let (lo, hi) = if a < b { (a, b) } else { (b, a) };
    (u64::from(lo) << 32) | u64::from(hi)
}

/// The pair of a key, `(smaller, larger)`.
#[inline]
pub(crate) fn key_pair(k: u64) -> (ProxyId, ProxyId) {
    ((k >> 32) as u32, k as u32)
}

/// A hasher for `u64` pair keys: the 64-bit finaliser of MurmurHash3 (Appleby), which mixes
/// every input bit into the high and low bits the table uses. Not for untrusted keys.
#[derive(Default, Clone, Copy)]
pub(crate) struct PairHasher(u64);

impl Hasher for PairHasher {
    #[inline]
    fn finish(&self) -> u64 {
        let mut x = self.0;
        x ^= x >> 33;
        x = x.wrapping_mul(0xff51_afd7_ed55_8ccd);
        x ^= x >> 33;
        x = x.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        x ^ (x >> 33)
    }

    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    #[inline]
    fn write_u64(&mut self, x: u64) {
        self.0 ^= x;
    }
}

/// A set of pair keys with the cheap hasher.
pub(crate) type PairSet = HashSet<u64, BuildHasherDefault<PairHasher>>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defect_display_fills_in_the_site_fields() {
        let text = |site, what| BroadPhaseDefect::new(site, what).to_string();
        assert_eq!(
            text(
                DefectSite::Count {
                    found: 3,
                    recorded: 2
                },
                "{found} pending proxies, counted {recorded}"
            ),
            "3 pending proxies, counted 2"
        );
        assert_eq!(
            text(
                DefectSite::Value {
                    axis: 1,
                    proxy: 7,
                    value: 0.5,
                    expected: -2.0
                },
                "axis {axis}: endpoint of {proxy} is {value}, box says {expected}"
            ),
            "axis 1: endpoint of 7 is 0.5, box says -2"
        );
        assert_eq!(
            text(DefectSite::Pair { a: 4, b: 9 }, "pair ({a}, {b}) is {c} {"),
            "pair (4, 9) is {c} {"
        );
        assert_eq!(
            text(DefectSite::Whole, "fat pair listed twice"),
            "fat pair listed twice"
        );
    }

    #[test]
    fn groups_rule_is_symmetric_and_both_must_accept() {
        // a is in group 1 and accepts 2; b is in group 2 and accepts 1: both accept.
        let a = CollisionGroups::new(1, 2);
        let b = CollisionGroups::new(2, 1);
        assert!(a.allows(b) && b.allows(a));
        // c is in group 2 but accepts only 4: a accepts c, c does not accept a.
        let c = CollisionGroups::new(2, 4);
        assert!(!a.allows(c) && !c.allows(a));
        assert!(CollisionGroups::default().allows(CollisionGroups::ALL));
        assert!(!CollisionGroups::NONE.allows(CollisionGroups::ALL));
    }

    #[test]
    fn check_aabb_rejects_nan_inf_inverted() {
        let ok = Aabb::new(Vec3::splat(-1e30), Vec3::splat(1e30));
        assert_eq!(check_aabb(&ok), Ok(()));
        let point = Aabb::new(Vec3::ONE, Vec3::ONE);
        assert_eq!(check_aabb(&point), Ok(()));
        for bad in [
            Aabb::new(Vec3::ZERO, Vec3::new(f32::NAN, 1.0, 1.0)),
            Aabb::new(Vec3::ZERO, Vec3::new(1.0, f32::INFINITY, 1.0)),
            Aabb {
                min: Vec3::ONE,
                max: Vec3::ZERO,
            },
            Aabb::EMPTY,
        ] {
            assert_eq!(check_aabb(&bad), Err(BroadPhaseError::InvalidAabb));
        }
    }

    #[test]
    fn ray_box_entry_cases() {
        let b = Aabb::new(Vec3::new(1.0, -1.0, -1.0), Vec3::new(2.0, 1.0, 1.0));
        let entry = |o: Vec3, d: Vec3, max_t: f32| ray_box_entry(o, d, d.recip(), &b, max_t);
        // Along +x from the origin: enters at x = 1.
        assert_eq!(entry(Vec3::ZERO, Vec3::X, 10.0), Some(1.0));
        // Too short to reach.
        assert_eq!(entry(Vec3::ZERO, Vec3::X, 0.5), None);
        // Starting inside: t = 0.
        assert_eq!(entry(Vec3::new(1.5, 0.0, 0.0), Vec3::X, 1.0), Some(0.0));
        // Zero direction inside / outside.
        assert_eq!(entry(Vec3::new(1.5, 0.0, 0.0), Vec3::ZERO, 1.0), Some(0.0));
        assert_eq!(entry(Vec3::ZERO, Vec3::ZERO, 1.0), None);
        // Grazing the face y = 1 counts (touching).
        assert_eq!(entry(Vec3::new(0.0, 1.0, 0.0), Vec3::X, 10.0), Some(1.0));
        // Pointing away.
        assert_eq!(entry(Vec3::ZERO, -Vec3::X, 10.0), None);
        // NaN misses.
        assert_eq!(entry(Vec3::NAN, Vec3::X, 10.0), None);
        assert_eq!(entry(Vec3::ZERO, Vec3::X, f32::NAN), None);
    }

    #[test]
    fn id_pool_reuses_only_after_release() {
        let mut p = IdPool::default();
        assert_eq!(p.alloc(), Ok(0));
        assert_eq!(p.alloc(), Ok(1));
        p.remove(0);
        assert_eq!(p.alloc(), Ok(2), "0 is not reusable before release");
        p.release_pending();
        assert_eq!(p.alloc(), Ok(0));
        assert_eq!(pair_key(5, 3), pair_key(3, 5));
        assert_eq!(key_pair(pair_key(5, 3)), (3, 5));
    }
}
