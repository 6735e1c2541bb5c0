//! The helper threads of Lazy SMP, kept parked from one search to the next.
//!
//! Starting a thread costs tens of microseconds, and a `go` with `Threads` = 256 spent about
//! 20 ms starting its 255 helpers before the first node. The pool starts each helper once and
//! parks it on a channel; `with_helpers` hands the parked threads a job for one search, runs
//! the main thread's part on the caller, and returns only when every helper has finished the
//! job. That wait is what lets a job borrow the caller's data (the position, the table, the
//! shared state) although the pool's threads outlive the search. One search uses the pool at
//! a time; another search in the same process meanwhile (tests, tools) starts its own scoped
//! threads as before.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::mpsc::{self, Sender};
use std::sync::{Arc, Condvar, Mutex, OnceLock, TryLockError};

/// What a helper runs: called with the helper's index, 1 to `helpers`.
pub(super) type Job<'a> = &'a (dyn Fn(usize) + Sync + 'a);

/// Counts the helpers still on a job; the caller waits for zero.
struct Latch {
    pending: Mutex<usize>,
    all_done: Condvar,
}

impl Latch {
    fn new(count: usize) -> Self {
        Self {
            pending: Mutex::new(count),
            all_done: Condvar::new(),
        }
    }

    fn count_down(&self) {
        let mut pending = self.pending.lock().unwrap_or_else(|p| p.into_inner());
        *pending -= 1;
        if *pending == 0 {
            self.all_done.notify_all();
        }
    }

    fn wait(&self) {
        let mut pending = self.pending.lock().unwrap_or_else(|p| p.into_inner());
        while *pending > 0 {
            pending = self
                .all_done
                .wait(pending)
                .unwrap_or_else(|p| p.into_inner());
        }
    }
}

/// One helper's share of a job. Dropping it - after running it, after a panic in it, or
/// when it could not be delivered - counts the latch down, so the caller never waits for a
/// task that will not run. The job is held as a raw pointer: once the latch reaches zero
/// the caller's borrow may end, and no reference to it may outlive that.
struct Task {
    job: *const (dyn Fn(usize) + Sync),
    index: usize,
    done: Arc<Latch>,
}

// SAFETY: the job behind the pointer is `Sync`, so calling it from another thread is fine;
// `Pool::run` keeps it alive until every task is dropped.
unsafe impl Send for Task {}

impl Task {
    fn run(&self) {
        // SAFETY: the caller of `Pool::run` waits for this task to be dropped before the
        // job's borrow ends, and the task is not dropped before this call returns.
        let job = unsafe { &*self.job };
        job(self.index);
    }
}

impl Drop for Task {
    fn drop(&mut self) {
        self.done.count_down();
    }
}

/// The parked helpers: one channel each.
struct Pool {
    helpers: Vec<Sender<Task>>,
}

impl Pool {
    /// Starts helpers until there are `count` (fewer if the system refuses threads).
    fn grow(&mut self, count: usize, stack_bytes: usize) {
        while self.helpers.len() < count {
            let (sender, receiver) = mpsc::channel::<Task>();
            let started = helper_thread(self.helpers.len() + 1, stack_bytes).spawn(move || {
                // Runs until the pool drops the sender (`retain`).
                while let Ok(task) = receiver.recv() {
                    // A panic ends this job only; the thread stays for the next one.
                    let _ = catch_unwind(AssertUnwindSafe(|| task.run()));
                }
            });
            if started.is_err() {
                break;
            }
            self.helpers.push(sender);
        }
    }
}

/// How a helper thread is started, in the pool or for one search.
fn helper_thread(index: usize, stack_bytes: usize) -> std::thread::Builder {
    std::thread::Builder::new()
        .name(format!("helper {index}"))
        .stack_size(stack_bytes)
}

fn pool() -> &'static Mutex<Pool> {
    static POOL: OnceLock<Mutex<Pool>> = OnceLock::new();
    POOL.get_or_init(|| {
        Mutex::new(Pool {
            helpers: Vec::new(),
        })
    })
}

/// On leaving `with_helpers`, normally or by a panic: tell the helpers to stop, then wait.
struct Finish<'a> {
    stop: &'a dyn Fn(),
    latch: Arc<Latch>,
}

impl Drop for Finish<'_> {
    fn drop(&mut self) {
        (self.stop)();
        self.latch.wait();
    }
}

/// Runs `job` on `helpers` helper threads (indices 1 to `helpers`) while `main` runs on the
/// calling thread; when `main` returns, calls `stop` (which must make the job return soon)
/// and waits for every helper before returning `main`'s result. A helper that cannot be
/// started is left out.
pub(super) fn with_helpers<R>(
    helpers: usize,
    stack_bytes: usize,
    job: Job<'_>,
    stop: &dyn Fn(),
    main: impl FnOnce() -> R,
) -> R {
    if helpers == 0 {
        return main();
    }
    match pool().try_lock() {
        Ok(mut pool) => pool.run(helpers, stack_bytes, job, stop, main),
        // A search that panicked left the pool as it should be (its helpers finished).
        Err(TryLockError::Poisoned(poisoned)) => {
            poisoned
                .into_inner()
                .run(helpers, stack_bytes, job, stop, main)
        }
        Err(TryLockError::WouldBlock) => with_scoped_threads(helpers, stack_bytes, job, stop, main),
    }
}

impl Pool {
    /// `with_helpers` on this pool's threads, started as needed.
    fn run<R>(
        &mut self,
        helpers: usize,
        stack_bytes: usize,
        job: Job<'_>,
        stop: &dyn Fn(),
        main: impl FnOnce() -> R,
    ) -> R {
        self.grow(helpers, stack_bytes);
        let count = self.helpers.len().min(helpers);
        let latch = Arc::new(Latch::new(count));
        let _finish = Finish {
            stop,
            latch: Arc::clone(&latch),
        };
        // The job only has to outlive its tasks: every task counts the latch down when it is
        // dropped (run, panicked or undelivered), and `_finish` waits for the latch to reach
        // zero before this function returns or unwinds, so no helper touches `job` (or what
        // it borrows) after the borrow ends.
        let job: *const (dyn Fn(usize) + Sync + '_) = job;
        // SAFETY: only the lifetime bound of the trait object changes (same layout); the
        // pointer is dereferenced only while `job` is borrowed, as said above.
        let job: *const (dyn Fn(usize) + Sync) = unsafe { std::mem::transmute(job) };
        for (offset, helper) in self.helpers.iter().take(count).enumerate() {
            // An undelivered task comes back in the error and is dropped: the latch counts it.
            let _ = helper.send(Task {
                job,
                index: offset + 1,
                done: Arc::clone(&latch),
            });
        }
        main()
    }
}

/// `with_helpers` for when the pool is busy with another search: threads started for this
/// search alone.
fn with_scoped_threads<R>(
    helpers: usize,
    stack_bytes: usize,
    job: Job<'_>,
    stop: &dyn Fn(),
    main: impl FnOnce() -> R,
) -> R {
    std::thread::scope(|scope| {
        for index in 1..=helpers {
            let started = helper_thread(index, stack_bytes).spawn_scoped(scope, move || job(index));
            if started.is_err() {
                break;
            }
        }
        struct StopOnExit<'a>(&'a dyn Fn());
        impl Drop for StopOnExit<'_> {
            fn drop(&mut self) {
                (self.0)();
            }
        }
        let _stop = StopOnExit(stop);
        main()
    })
}

/// Lets all but `helpers` parked helpers end (after `setoption name Threads` lowers the
/// count, so that idle threads do not pile up). Does nothing while a search holds the pool.
pub fn retain(helpers: usize) {
    if let Ok(mut pool) = pool().try_lock() {
        pool.helpers.truncate(helpers);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    use std::thread::ThreadId;

    /// Runs a job that records who ran it on `pool`; returns the indices and threads, sorted
    /// by index.
    fn run_recording(pool: &mut Pool, helpers: usize) -> (Vec<usize>, Vec<ThreadId>) {
        let seen = Mutex::new(Vec::new());
        let job = |index: usize| {
            let me = std::thread::current().id();
            seen.lock().unwrap().push((index, me));
        };
        assert!(pool.run(helpers, 1 << 20, &job, &|| {}, || true));
        let mut seen = seen.into_inner().unwrap();
        seen.sort_by_key(|(index, _)| *index);
        seen.into_iter().unzip()
    }

    fn new_pool() -> Pool {
        Pool {
            helpers: Vec::new(),
        }
    }

    #[test]
    fn every_helper_runs_once_on_threads_kept_between_jobs() {
        let mut pool = new_pool();
        let (indices, first) = run_recording(&mut pool, 3);
        assert_eq!(indices, vec![1, 2, 3]);
        assert!(!first.contains(&std::thread::current().id()));
        let (_, second) = run_recording(&mut pool, 3);
        assert_eq!(first, second, "the same threads serve the next job");
        let (indices, fewer) = run_recording(&mut pool, 2);
        assert_eq!(indices, vec![1, 2]);
        assert_eq!(fewer, first[..2]);
        let (indices, more) = run_recording(&mut pool, 4);
        assert_eq!(indices, vec![1, 2, 3, 4]);
        assert_eq!(more[..3], first);
    }

    #[test]
    fn the_caller_returns_only_after_stop_and_every_helper_finished() {
        let mut pool = new_pool();
        let stop = AtomicBool::new(false);
        let finished = AtomicUsize::new(0);
        let job = |_: usize| {
            while !stop.load(Ordering::SeqCst) {
                std::thread::yield_now();
            }
            std::thread::sleep(std::time::Duration::from_millis(5));
            finished.fetch_add(1, Ordering::SeqCst);
        };
        let raise = || stop.store(true, Ordering::SeqCst);
        pool.run(2, 1 << 20, &job, &raise, || ());
        assert_eq!(finished.load(Ordering::SeqCst), 2);
    }

    #[test]
    fn a_panicking_job_neither_hangs_the_caller_nor_ends_the_helper() {
        let mut pool = new_pool();
        let (_, before) = run_recording(&mut pool, 2);
        let job = |index: usize| {
            if index == 1 {
                panic!("a helper job panics on purpose");
            }
        };
        pool.run(2, 1 << 20, &job, &|| {}, || ());
        let (indices, after) = run_recording(&mut pool, 2);
        assert_eq!(indices, vec![1, 2]);
        assert_eq!(before, after, "the helper that panicked is still there");
    }

    #[test]
    fn a_busy_pool_serves_another_search_with_scoped_threads() {
        let inner = Mutex::new(Vec::new());
        let outer_ran = AtomicUsize::new(0);
        let outer = |_: usize| {
            outer_ran.fetch_add(1, Ordering::SeqCst);
        };
        with_helpers(1, 1 << 20, &outer, &|| {}, || {
            // The pool is taken (by this call or by another test): the call inside still
            // runs every helper.
            let job = |index: usize| inner.lock().unwrap().push(index);
            with_helpers(2, 1 << 20, &job, &|| {}, || ());
        });
        let mut inner = inner.into_inner().unwrap();
        inner.sort_unstable();
        assert_eq!(inner, vec![1, 2]);
        assert_eq!(outer_ran.load(Ordering::SeqCst), 1);
    }

    #[test]
    fn a_panic_in_the_main_part_stops_and_waits_for_the_helpers_and_the_pool_recovers() {
        let stop = AtomicBool::new(false);
        let finished = AtomicUsize::new(0);
        let job = |_: usize| {
            while !stop.load(Ordering::SeqCst) {
                std::thread::yield_now();
            }
            finished.fetch_add(1, Ordering::SeqCst);
        };
        let raise = || stop.store(true, Ordering::SeqCst);
        let outcome = catch_unwind(AssertUnwindSafe(|| {
            with_helpers(2, 1 << 20, &job, &raise, || {
                panic!("the main part panics on purpose")
            })
        }));
        assert!(outcome.is_err());
        assert_eq!(
            finished.load(Ordering::SeqCst),
            2,
            "helpers done before unwinding on"
        );
        // The (possibly poisoned) global pool still serves.
        let ran = AtomicUsize::new(0);
        let count = |_: usize| {
            ran.fetch_add(1, Ordering::SeqCst);
        };
        with_helpers(3, 1 << 20, &count, &|| {}, || ());
        assert_eq!(ran.load(Ordering::SeqCst), 3);
    }
}
