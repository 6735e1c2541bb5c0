//! `brudno lab`: the search lab as a live page. A small HTTP server (tiny_http: synchronous,
//! four small dependencies, no async runtime; docs/lab.md says why) serves the trace page
//! with its controls switched on, and the JSON API of `api.rs` over the trace tool's code.
//!
//! A fixed number of worker threads take requests from the server's queue, so several
//! requests are computed at once and a slow one never blocks the rest for long. Each request
//! gets a `Budget`: a `SearchControl` that a watchdog thread stops at the time limit, which
//! every search of the request obeys. A handler that panics is caught (`catch_unwind`) and
//! answered with a 500: the server never stops serving because of what a request asked. It
//! binds 127.0.0.1 unless told otherwise, and says so loudly when it is open to the network.

#![warn(missing_docs)]

pub mod api;
pub mod trace;

use std::io::Write;
use std::net::IpAddr;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::process::{Command, ExitCode, Stdio};
use std::sync::Arc;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::thread;
use std::time::Duration;

use tiny_http::{Header, Method, Request, Response, Server};

use crate::trace::Budget;
use api::Reply;
use brudno_engine::search::SearchControl;

/// The default port: the year Brudno published alpha-beta.
pub const DEFAULT_PORT: u16 = 1963;

/// The command line of `brudno lab`.
#[derive(clap::Args, Clone, Debug)]
pub struct LabArgs {
    /// The port to listen on (0: any free port, printed).
    #[arg(long, default_value_t = DEFAULT_PORT)]
    pub port: u16,
    /// The address to listen on; anything but a loopback address opens the lab to the
    /// network.
    #[arg(long, default_value = "127.0.0.1")]
    pub host: IpAddr,
    /// Start the system's browser on the lab's address.
    #[arg(long)]
    pub open: bool,
    /// Seconds one request may compute before it is answered with an error.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u64).range(1..=600))]
    pub time_limit: u64,
    /// Requests computed at once (more wait in the queue).
    #[arg(long, default_value_t = 4, value_parser = clap::value_parser!(u64).range(1..=64))]
    pub workers: u64,
}

/// Runs the lab until the process is stopped. Returns a failure when it cannot listen.
pub fn run(args: &LabArgs) -> ExitCode {
    let server = match Server::http((args.host, args.port)) {
        Ok(server) => Arc::new(server),
        Err(e) => {
            eprintln!("lab: cannot listen on {}:{}: {e}", args.host, args.port);
            return ExitCode::from(2);
        }
    };
    let port = server
        .server_addr()
        .to_ip()
        .map_or(args.port, |addr| addr.port());
    let shown_host = if args.host.is_unspecified() {
        "127.0.0.1".to_string()
    } else {
        match args.host {
            IpAddr::V6(v6) => format!("[{v6}]"),
            IpAddr::V4(v4) => v4.to_string(),
        }
    };
    let address = format!("http://{shown_host}:{port}/");
    if !args.host.is_loopback() {
        eprintln!(
            "lab: WARNING: listening on {} makes the lab reachable from the network: anyone who can reach this machine can use it and its processors. Use --host 127.0.0.1 to keep it local.",
            args.host
        );
    }
    println!("Brudno lab: open {address} in a browser (Ctrl-C stops it)");
    let _ = std::io::stdout().flush();
    if args.open {
        open_browser(&address);
    }
    let limit = Duration::from_secs(args.time_limit);
    let workers: Vec<_> = (0..args.workers)
        .map(|index| {
            let server = Arc::clone(&server);
            thread::Builder::new()
                .name(format!("lab-{index}"))
                .stack_size(16 << 20)
                .spawn(move || serve(&server, limit))
        })
        .collect();
    for worker in workers.into_iter().flatten() {
        let _ = worker.join();
    }
    ExitCode::SUCCESS
}

/// One worker: takes requests off the server's queue, one at a time, for ever.
fn serve(server: &Server, limit: Duration) {
    loop {
        let request = match server.recv() {
            Ok(request) => request,
            Err(_) => continue,
        };
        handle(request, limit);
    }
}

/// Answers one request within `limit`; a panic becomes a 500.
fn handle(request: Request, limit: Duration) {
    let reply = if *request.method() != Method::Get && *request.method() != Method::Head {
        Reply::error(405, "the lab answers GET requests only", None)
    } else {
        let target = request.url().to_string();
        let (budget, watchdog) = budget(limit);
        let reply = catch_unwind(AssertUnwindSafe(|| api::answer(&target, &budget)))
            .unwrap_or_else(|_| {
                Reply::error(500, "internal error (the lab goes on serving)", None)
            });
        drop(watchdog);
        reply
    };
    let mut response = Response::from_string(reply.body).with_status_code(reply.status);
    for (name, value) in [
        ("Content-Type", reply.content_type),
        ("Cache-Control", "no-store"),
        ("X-Content-Type-Options", "nosniff"),
    ] {
        if let Ok(header) = Header::from_bytes(name.as_bytes(), value.as_bytes()) {
            response.add_header(header);
        }
    }
    // A client that went away is not an error worth more than silence.
    let _ = request.respond(response);
}

/// A budget that runs out after `limit`, and the watchdog that spends it: dropping the
/// returned sender ends the watchdog early.
pub fn budget(limit: Duration) -> (Budget, mpsc::Sender<()>) {
    let control = Arc::new(SearchControl::default());
    control.begin(false);
    let (done, finished) = mpsc::channel::<()>();
    let watched = Arc::clone(&control);
    let spawned = thread::Builder::new()
        .name("lab-watchdog".to_string())
        .spawn(move || {
            if let Err(RecvTimeoutError::Timeout) = finished.recv_timeout(limit) {
                watched.stop();
            }
        });
    if spawned.is_err() {
        // No thread for the watchdog: rather no time limit than no answer.
        eprintln!("lab: no watchdog thread; this request runs without a time limit");
    }
    (Budget::stopped_by(control), done)
}

/// Starts the system's browser on `address`, or says why not.
fn open_browser(address: &str) {
    let opener: &[&str] = if cfg!(target_os = "macos") {
        &["open"]
    } else if cfg!(target_os = "windows") {
        &["cmd", "/C", "start", ""]
    } else {
        &["xdg-open"]
    };
    let started = Command::new(opener[0])
        .args(&opener[1..])
        .arg(address)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn();
    match started {
        Ok(_) => println!(
            "lab: asked the system's browser to open {address} ({})",
            opener[0]
        ),
        Err(e) => println!(
            "lab: no browser could be started ({}: {e}); open {address} yourself",
            opener[0]
        ),
    }
}
