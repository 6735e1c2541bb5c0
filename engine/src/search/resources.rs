//! How much of the machine a search may take: the table size against the memory this process
//! may still use, and the thread count against the logical CPUs.
//!
//! The UCI options (`Hash`, `Threads`) and the EPD runner's `--hash` and `--threads` both go
//! through these checks, so the same values are accepted and clamped the same way wherever
//! they are given. Nothing here allocates the table or starts a thread: it only says what is
//! allowed, and why, in messages for the user.

/// Largest Hash accepted, in MiB (then clamped again to the memory of the machine).
pub const MAX_HASH_MIB: i64 = 1 << 20;
/// Most threads accepted.
pub const MAX_THREADS: i64 = 1024;

/// More search threads than logical CPUs take turns on them: the search then notices `stop`
/// and the clock late (256 threads on 2 CPUs overran `go movetime 300` by 0.4 s). The count
/// is kept - it is the user's to choose - but the user is told.
pub fn warn_if_oversubscribed(threads: usize, messages: &mut Vec<String>) {
    if let Ok(cpus) = std::thread::available_parallelism()
        && threads > cpus.get()
    {
        messages.push(format!(
            "option Threads: {threads} is more than the {cpus} logical CPUs here; the threads \
             take turns, which delays stop and the time checks (the more so, the more threads)"
        ));
    }
}

/// Limits a Hash request to half of the memory this process may still use, so that a large
/// value cannot get the engine killed for lack of memory.
pub fn clamp_hash_to_memory(requested: usize, messages: &mut Vec<String>) -> usize {
    match available_memory_mib() {
        Some(available) if requested > (available / 2).max(1) => {
            let allowed = (available / 2).max(1);
            messages.push(format!(
                "option Hash: {requested} MiB is more than half the available memory \
                 ({available} MiB), using {allowed} MiB"
            ));
            allowed
        }
        _ => requested,
    }
}

/// Memory this process may still use, in MiB: the least of what the system reports available,
/// what a control-group (container) limit leaves and what the address-space limit
/// (`ulimit -v`) leaves. `None` where none of them can be read (not Linux).
pub fn available_memory_mib() -> Option<usize> {
    [
        system_available_bytes(),
        cgroup_available_bytes(),
        address_space_available_bytes(),
    ]
    .into_iter()
    .flatten()
    .min()
    .map(|bytes| (bytes >> 20) as usize)
}

/// `MemAvailable` from /proc/meminfo.
fn system_available_bytes() -> Option<u64> {
    let kib = proc_field("/proc/meminfo", "MemAvailable:")?;
    Some(kib.saturating_mul(1024))
}

/// The memory limit of the control group (v2, then v1) minus its current usage. An unlimited
/// group (`max`, or v1's huge number) gives a value larger than the system's and changes
/// nothing.
fn cgroup_available_bytes() -> Option<u64> {
    let read =
        |path: &str| -> Option<u64> { std::fs::read_to_string(path).ok()?.trim().parse().ok() };
    let (limit, usage) = match read("/sys/fs/cgroup/memory.max") {
        Some(limit) => (limit, read("/sys/fs/cgroup/memory.current")?),
        None => (
            read("/sys/fs/cgroup/memory/memory.limit_in_bytes")?,
            read("/sys/fs/cgroup/memory/memory.usage_in_bytes")?,
        ),
    };
    Some(limit.saturating_sub(usage))
}

/// The soft address-space limit (`ulimit -v`) minus the address space already in use.
fn address_space_available_bytes() -> Option<u64> {
    let limits = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = limits
        .lines()
        .find(|l| l.starts_with("Max address space"))?;
    let limit: u64 = line.split_whitespace().nth(3)?.parse().ok()?;
    let used_kib = proc_field("/proc/self/status", "VmSize:")?;
    Some(limit.saturating_sub(used_kib.saturating_mul(1024)))
}

/// The first number after `label` in a /proc file of `label value kB` lines.
fn proc_field(path: &str, label: &str) -> Option<u64> {
    let text = std::fs::read_to_string(path).ok()?;
    let line = text.lines().find(|l| l.starts_with(label))?;
    line.split_whitespace().nth(1)?.parse().ok()
}
