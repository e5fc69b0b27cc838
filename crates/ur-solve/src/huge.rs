//! Large zeroed arrays backed by transparent huge pages.
//!
//! The solver reads values at random over hundreds of megabytes; with 4 KiB
//! pages nearly every read misses the TLB (and in a virtual machine a miss
//! walks two page tables). 2 MiB pages cut those misses, and the page
//! faults of filling the array, by a factor of 512.

use std::marker::PhantomData;
use std::ops::{Deref, DerefMut};
use std::sync::atomic::{AtomicU32, AtomicU64};

use memmap2::MmapMut;

/// Types for which all-zero bytes are a valid value.
///
/// # Safety
/// Implement only for types whose all-zero bit pattern is a valid value and
/// whose alignment is at most a page.
pub unsafe trait Zeroable: Sized {}
unsafe impl Zeroable for f32 {}
unsafe impl Zeroable for f64 {}
unsafe impl Zeroable for AtomicU32 {}
unsafe impl Zeroable for AtomicU64 {}

/// A fixed-length array of zero-initialised `T`, in anonymous memory
/// advised to use huge pages.
pub struct HugeArray<T: Zeroable> {
    map: Option<MmapMut>,
    len: usize,
    _t: PhantomData<T>,
}

impl<T: Zeroable> HugeArray<T> {
    /// `len` zeroed elements.
    ///
    /// # Errors
    /// The memory cannot be mapped.
    pub fn zeroed(len: usize) -> std::io::Result<Self> {
        let bytes = len * std::mem::size_of::<T>();
        if bytes == 0 {
            return Ok(HugeArray { map: None, len, _t: PhantomData });
        }
        let map = MmapMut::map_anon(bytes)?;
        // Advice only: without huge pages the array still works.
        #[cfg(target_os = "linux")]
        let _ = map.advise(memmap2::Advice::HugePage);
        Ok(HugeArray { map: Some(map), len, _t: PhantomData })
    }
}

impl<T: Zeroable> HugeArray<T> {
    /// `len` zeroed elements in a mapping with room for `room`, to be
    /// reused later at any length up to it ([`HugeArray::reused`]). Pages
    /// past those touched cost nothing until touched.
    ///
    /// # Errors
    /// The memory cannot be mapped.
    pub fn zeroed_with_room(len: usize, room: usize) -> std::io::Result<Self> {
        let mut array = Self::zeroed(room.max(len))?;
        array.len = len;
        Ok(array)
    }

    /// The same memory as an array of `len` elements if it has room for
    /// them (they hold what was there: every bit pattern is a value), else
    /// itself back. Pages already touched need no clearing.
    pub fn reused(mut self, len: usize) -> Result<Self, Self> {
        let room = self.map.as_ref().map_or(0, |m| m.len() / std::mem::size_of::<T>());
        if len > room {
            return Err(self);
        }
        self.len = len;
        Ok(self)
    }

    /// `len` elements in `memory` if it has room for them (holding what was
    /// there), or else zeroed in a fresh mapping with room for `room`.
    ///
    /// # Errors
    /// The memory cannot be mapped.
    pub fn reused_or_zeroed(memory: Option<Self>, len: usize, room: usize) -> std::io::Result<Self> {
        match memory.map(|m| m.reused(len)) {
            Some(Ok(array)) => Ok(array),
            // Too small: dropped before the fresh memory is mapped.
            _ => Self::zeroed_with_room(len, room),
        }
    }

    /// Returns the memory of elements `range` to the system, keeping whole
    /// 2 MiB blocks only, so neighbouring elements are never touched. The
    /// elements released read as zero afterwards.
    pub fn release(&mut self, range: std::ops::Range<usize>) {
        const BLOCK: usize = 2 << 20;
        let size = std::mem::size_of::<T>();
        let (lo, hi) = ((range.start * size).next_multiple_of(BLOCK), range.end * size / BLOCK * BLOCK);
        if let (Some(map), true) = (&self.map, lo < hi) {
            // SAFETY: anonymous private pages read as zero after
            // MADV_DONTNEED, a valid `T`; `&mut self` excludes other
            // references into the array.
            #[cfg(unix)]
            let _ = unsafe { map.unchecked_advise_range(memmap2::UncheckedAdvice::DontNeed, lo, hi - lo) };
        }
    }
}

impl HugeArray<AtomicU32> {
    /// The same memory read as `f32` bit patterns.
    pub fn into_f32(self) -> HugeArray<f32> {
        HugeArray { map: self.map, len: self.len, _t: PhantomData }
    }
}

impl HugeArray<f32> {
    /// The same memory as `f32` bit patterns.
    pub fn into_u32(self) -> HugeArray<AtomicU32> {
        HugeArray { map: self.map, len: self.len, _t: PhantomData }
    }
}

impl HugeArray<AtomicU64> {
    /// The same memory read as `f64` bit patterns.
    pub fn into_f64(self) -> HugeArray<f64> {
        HugeArray { map: self.map, len: self.len, _t: PhantomData }
    }
}

impl<T: Zeroable> Deref for HugeArray<T> {
    type Target = [T];
    fn deref(&self) -> &[T] {
        match &self.map {
            // SAFETY: the map is page-aligned, holds `len` elements' bytes,
            // zeroed or written through `DerefMut`, and `T` is `Zeroable`.
            Some(m) => unsafe { std::slice::from_raw_parts(m.as_ptr().cast::<T>(), self.len) },
            None => &[],
        }
    }
}

impl<T: Zeroable> DerefMut for HugeArray<T> {
    fn deref_mut(&mut self) -> &mut [T] {
        match &mut self.map {
            // SAFETY: as in `deref`, with exclusive access through `&mut self`.
            Some(m) => unsafe { std::slice::from_raw_parts_mut(m.as_mut_ptr().cast::<T>(), self.len) },
            None => &mut [],
        }
    }
}

/// While it lives, the allocator keeps memory freed for reuse: a solve
/// without a memory cap compiles each group's rows into the memory the
/// group before freed, instead of the kernel handing out (and clearing)
/// fresh pages for every group. Blocks up to 32 MiB come from the
/// allocator's heaps, and their free tops are kept (below 2 GiB). Dropped,
/// it sets glibc's default thresholds again and hands the memory back.
pub struct KeepFreedMemory(());

/// Starts keeping freed memory, until the [`KeepFreedMemory`] is dropped.
pub fn keep_freed_memory() -> KeepFreedMemory {
    set_malloc_thresholds(32 << 20, i32::MAX);
    KeepFreedMemory(())
}

impl Drop for KeepFreedMemory {
    fn drop(&mut self) {
        set_malloc_thresholds(128 << 10, 128 << 10);
        return_freed_memory();
    }
}

/// The sizes above which glibc maps a block on its own, and trims a
/// heap's free top.
fn set_malloc_thresholds(mmap: i32, trim: i32) {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only changes the allocator's thresholds.
    unsafe {
        libc::mallopt(libc::M_MMAP_THRESHOLD, mmap);
        libc::mallopt(libc::M_TRIM_THRESHOLD, trim);
    }
    #[cfg(not(all(target_os = "linux", target_env = "gnu")))]
    let _ = (mmap, trim);
}

/// Hands memory the allocator holds free back to the system. A compiled
/// operator is hundreds of thousands of blocks; once freed, the allocator
/// keeps them for reuse, so the next large array would come on top of them.
pub fn return_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only releases free pages of the allocator's own heaps.
    unsafe {
        libc::malloc_trim(0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// An array mapped with room is reused at any length up to the room,
    /// keeping what it held, and refused beyond it.
    #[test]
    fn arrays_are_reused_within_their_room() {
        let mut a = HugeArray::<f64>::zeroed_with_room(3, 1000).unwrap();
        assert_eq!(a.len(), 3);
        a[2] = 7.0;
        let mut b = a.reused(1000).unwrap_or_else(|_| panic!("1000 elements fit"));
        assert_eq!((b.len(), b[2]), (1000, 7.0));
        b[999] = 1.0;
        let c = b.reused(10).unwrap_or_else(|_| panic!("10 elements fit"));
        assert_eq!(c.len(), 10);
        let too_many = c.reused(1001);
        assert!(too_many.is_err());
        assert_eq!(HugeArray::<f64>::zeroed_with_room(5, 0).unwrap().len(), 5);
    }
}
