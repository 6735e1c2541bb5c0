//! Memory for the transposition table: zero-filled by the system, backed by transparent huge
//! pages where the system offers them, and cleared by several threads at once.
//!
//! On Linux the table is an anonymous `mmap`, aligned to 2 MiB and marked `MADV_HUGEPAGE`.
//! The kernel hands out such memory already zero and only when a page is first touched, so a
//! new table of any size is ready at once: `setoption name Hash value 4096` no longer writes
//! 4 GiB before `readyok`. The zeroing is paid as the search first touches each page, 2 MiB at
//! a time with huge pages. Huge pages also cut the TLB misses of random probes (the figures
//! are in docs/strength-log.md, `cargo bench --bench hot_paths -- tt_pages`). Elsewhere the table
//! comes from the global allocator's `alloc_zeroed`.
//!
//! Clearing a used table (`ucinewgame`, `Clear Hash`) splits it among `Threads` threads, as
//! Stockfish does; on Linux each thread gives its part back to the kernel (`MADV_DONTNEED`),
//! which maps zero pages in again on the next touch, so clearing costs what was used, not the
//! size of the table.

use std::alloc::Layout;
use std::ptr::NonNull;

/// Types whose all-zero bit pattern is a valid value and that can be set back to zero through
/// a shared reference (atomics, and structures of them).
///
/// # Safety
/// Implement only for types for which `std::mem::zeroed()` is a valid value.
pub unsafe trait Zeroable: Sync {
    /// Sets the value back to its all-zero state.
    fn reset(&self);
}

/// Whether to ask for transparent huge pages.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pages {
    /// `MADV_HUGEPAGE` on Linux (the default).
    Huge,
    /// The system's default pages (to measure what huge pages bring).
    Normal,
}

/// A fixed-length, zero-initialised array of `T` in memory of its own.
pub struct ZeroedBuffer<T: Zeroable> {
    ptr: NonNull<T>,
    len: usize,
    backing: Backing,
}

enum Backing {
    #[cfg(target_os = "linux")]
    Mapped {
        base: *mut libc::c_void,
        bytes: usize,
    },
    Heap(Layout),
    Empty,
}

// SAFETY: the buffer owns its memory; sharing it is sharing `[T]`, which `T: Sync` allows.
unsafe impl<T: Zeroable> Send for ZeroedBuffer<T> {}
// SAFETY: as above.
unsafe impl<T: Zeroable> Sync for ZeroedBuffer<T> {}

const HUGE_PAGE: usize = 2 << 20;

impl<T: Zeroable> ZeroedBuffer<T> {
    /// An empty buffer.
    pub fn empty() -> Self {
        Self {
            ptr: NonNull::dangling(),
            len: 0,
            backing: Backing::Empty,
        }
    }

    /// `len` zeroed values, or `None` when the memory cannot be had.
    pub fn new(len: usize, pages: Pages) -> Option<Self> {
        let layout = Layout::array::<T>(len).ok()?;
        if layout.size() == 0 {
            return Some(Self::empty());
        }
        #[cfg(target_os = "linux")]
        if let Some(buffer) = Self::mapped(len, layout, pages) {
            return Some(buffer);
        }
        let _ = pages;
        // SAFETY: the layout has a non-zero size.
        let ptr = unsafe { std::alloc::alloc_zeroed(layout) };
        Some(Self {
            ptr: NonNull::new(ptr.cast::<T>())?,
            len,
            backing: Backing::Heap(layout),
        })
    }

    /// Anonymous memory from the kernel (zero on first touch), 2 MiB aligned so that all of
    /// it can be huge pages.
    #[cfg(target_os = "linux")]
    fn mapped(len: usize, layout: Layout, pages: Pages) -> Option<Self> {
        let size = layout.size();
        let bytes = size.checked_add(HUGE_PAGE)?;
        // SAFETY: a fresh private anonymous mapping; no existing memory is touched.
        let base = unsafe {
            libc::mmap(
                std::ptr::null_mut(),
                bytes,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE,
                -1,
                0,
            )
        };
        if base == libc::MAP_FAILED {
            return None;
        }
        let offset = (HUGE_PAGE - (base as usize) % HUGE_PAGE) % HUGE_PAGE;
        // SAFETY: `offset < HUGE_PAGE`, inside the mapping of `size + HUGE_PAGE` bytes.
        let start = unsafe { base.cast::<u8>().add(offset) };
        if pages == Pages::Huge {
            // A hint: where huge pages are off or unavailable the call fails or is ignored,
            // and the memory is simply made of normal pages.
            // SAFETY: the range lies inside the mapping made above.
            unsafe { libc::madvise(start.cast(), size, libc::MADV_HUGEPAGE) };
        }
        if !(start as usize).is_multiple_of(layout.align()) {
            // SAFETY: unmapping exactly the mapping made above.
            unsafe { libc::munmap(base, bytes) };
            return None;
        }
        Some(Self {
            ptr: NonNull::new(start.cast::<T>())?,
            len,
            backing: Backing::Mapped { base, bytes },
        })
    }

    /// Sets every value back to zero using `threads` threads, each clearing its own part.
    /// Kernel memory is given back with `MADV_DONTNEED` (the kernel maps zero pages in again
    /// when they are next touched, so pages the search never reached cost nothing); other
    /// memory is written value by value.
    pub fn zero(&self, threads: usize) {
        if self.is_empty() {
            return;
        }
        let threads = threads.clamp(1, 256).min(self.len);
        #[cfg(target_os = "linux")]
        if let Backing::Mapped { .. } = self.backing {
            let bytes = self.len * std::mem::size_of::<T>();
            let chunk = bytes.div_ceil(threads).next_multiple_of(HUGE_PAGE);
            let start = self.ptr.as_ptr() as usize;
            let released = std::thread::scope(|scope| {
                let parts: Vec<_> = (0..bytes)
                    .step_by(chunk)
                    .map(|offset| {
                        let length = chunk.min(bytes - offset);
                        scope.spawn(move || {
                            // SAFETY: a page-aligned range inside our private anonymous
                            // mapping; its contents become zero, a valid `T`.
                            unsafe {
                                libc::madvise(
                                    (start + offset) as *mut libc::c_void,
                                    length,
                                    libc::MADV_DONTNEED,
                                )
                            }
                        })
                    })
                    .collect();
                parts.into_iter().all(|p| p.join().is_ok_and(|rc| rc == 0))
            });
            if released {
                return;
            }
        }
        let chunk = self.len.div_ceil(threads);
        std::thread::scope(|scope| {
            for part in self.chunks(chunk) {
                scope.spawn(move || part.iter().for_each(T::reset));
            }
        });
    }

    /// Number of values.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether the buffer holds no value.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl<T: Zeroable> std::ops::Deref for ZeroedBuffer<T> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        // SAFETY: `ptr` points to `len` initialised (zeroed, then only changed through `&T`)
        // values that live as long as `self`; a dangling pointer is valid for length 0.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }
}

impl<T: Zeroable> Drop for ZeroedBuffer<T> {
    fn drop(&mut self) {
        match self.backing {
            #[cfg(target_os = "linux")]
            Backing::Mapped { base, bytes } => {
                // SAFETY: the mapping made in `mapped`, unmapped once.
                unsafe { libc::munmap(base, bytes) };
            }
            // SAFETY: allocated in `new` with this layout.
            Backing::Heap(layout) => unsafe {
                std::alloc::dealloc(self.ptr.as_ptr().cast(), layout)
            },
            Backing::Empty => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicU64, Ordering};

    struct Cell(AtomicU64);

    // SAFETY: an atomic integer is valid all-zero.
    unsafe impl Zeroable for Cell {
        fn reset(&self) {
            self.0.store(0, Ordering::Relaxed);
        }
    }

    #[test]
    fn new_memory_is_zero_and_zeroing_clears_it() {
        for pages in [Pages::Huge, Pages::Normal] {
            let buffer = ZeroedBuffer::<Cell>::new(1 << 20, pages).unwrap();
            assert!(buffer.iter().all(|v| v.0.load(Ordering::Relaxed) == 0));
            for (i, v) in buffer.iter().enumerate() {
                v.0.store(i as u64 | 1, Ordering::Relaxed);
            }
            for threads in [1, 3, 7] {
                buffer.zero(threads);
                assert!(buffer.iter().all(|v| v.0.load(Ordering::Relaxed) == 0));
                buffer[12345].0.store(9, Ordering::Relaxed);
            }
        }
    }

    #[test]
    fn empty_and_tiny_buffers() {
        let empty = ZeroedBuffer::<Cell>::new(0, Pages::Huge).unwrap();
        assert!(empty.is_empty());
        empty.zero(4);
        let one = ZeroedBuffer::<Cell>::new(1, Pages::Huge).unwrap();
        one[0].0.store(5, Ordering::Relaxed);
        one.zero(8);
        assert_eq!(one[0].0.load(Ordering::Relaxed), 0);
    }

    #[test]
    fn impossible_sizes_are_refused() {
        assert!(ZeroedBuffer::<Cell>::new(usize::MAX / 4, Pages::Huge).is_none());
    }
}
