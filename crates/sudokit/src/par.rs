//! Parallel iteration when the `parallel` feature is on (rayon), and the same
//! calls run in order on the calling thread when it is off.
//!
//! The batch analyzer, the generator and the pattern-database builder are
//! written once against rayon's names (`par_iter`, `into_par_iter`,
//! `map_init`, `reduce` with an identity, …). Without rayon those names come
//! from `Seq` (compiled only then), a thin wrapper over a standard iterator
//! that offers just the adaptors the crate uses, with rayon's signatures.

#[cfg(feature = "parallel")]
pub(crate) use rayon::prelude::*;

/// Worker threads the parallel paths spread work over.
#[cfg(feature = "parallel")]
pub(crate) fn threads() -> usize {
    rayon::current_num_threads()
}

#[cfg(not(feature = "parallel"))]
pub(crate) use self::sequential::*;

#[cfg(not(feature = "parallel"))]
mod sequential {
    /// One thread: the `parallel` feature is off.
    pub(crate) fn threads() -> usize {
        1
    }

    /// A standard iterator behind rayon's adaptor names and signatures.
    pub(crate) struct Seq<I>(I);

    impl<I: Iterator> Seq<I> {
        /// `Iterator::map`.
        pub(crate) fn map<R, F: FnMut(I::Item) -> R>(self, f: F) -> Seq<std::iter::Map<I, F>> {
            Seq(self.0.map(f))
        }

        /// rayon's `map_init`: one state, made once, for every item.
        pub(crate) fn map_init<S, R>(
            self,
            init: impl FnOnce() -> S,
            mut f: impl FnMut(&mut S, I::Item) -> R,
        ) -> Seq<impl Iterator<Item = R>> {
            let mut state = init();
            Seq(self.0.map(move |item| f(&mut state, item)))
        }

        /// `Iterator::step_by`.
        pub(crate) fn step_by(self, step: usize) -> Seq<std::iter::StepBy<I>> {
            Seq(self.0.step_by(step))
        }

        /// rayon's split hint: nothing to split here.
        pub(crate) fn with_min_len(self, _min: usize) -> Seq<I> {
            self
        }

        /// rayon's `reduce`: a fold from `identity()`.
        pub(crate) fn reduce(
            self,
            identity: impl FnOnce() -> I::Item,
            op: impl FnMut(I::Item, I::Item) -> I::Item,
        ) -> I::Item {
            self.0.fold(identity(), op)
        }

        /// `Iterator::collect`.
        pub(crate) fn collect<C: FromIterator<I::Item>>(self) -> C {
            self.0.collect()
        }

        /// `Iterator::unzip`.
        pub(crate) fn unzip<A, B, FromA, FromB>(self) -> (FromA, FromB)
        where
            I: Iterator<Item = (A, B)>,
            FromA: Default + Extend<A>,
            FromB: Default + Extend<B>,
        {
            self.0.unzip()
        }
    }

    /// rayon's `into_par_iter` for anything iterable.
    pub(crate) trait IntoParallelIterator: IntoIterator + Sized {
        /// The items in order.
        fn into_par_iter(self) -> Seq<Self::IntoIter> {
            Seq(self.into_iter())
        }
    }

    impl<T: IntoIterator> IntoParallelIterator for T {}

    /// rayon's `par_iter` for slices.
    pub(crate) trait ParallelSlice<T> {
        /// The items in order, by reference.
        fn par_iter(&self) -> Seq<std::slice::Iter<'_, T>>;
    }

    impl<T> ParallelSlice<T> for [T] {
        fn par_iter(&self) -> Seq<std::slice::Iter<'_, T>> {
            Seq(self.iter())
        }
    }
}
