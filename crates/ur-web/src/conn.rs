//! The connections: who may open one, and how long one may stay silent.
//!
//! Every TCP connection, plain HTTP or websocket, holds a place under two
//! caps: all connections at once (kept below the open-file limit, so the
//! server never runs out of file descriptors) and connections per client
//! address. A connection with no request in flight is *idle*; when a cap is
//! full, a new connection closes the oldest idle one under that cap and takes
//! its place, so connections that send nothing cannot keep anyone out. When no
//! connection can make room, the new one is answered 503 and closed at once.
//!
//! A request's head must arrive within the header-read timeout (counted from
//! the connection's opening or the end of the previous answer); a request in
//! flight on which no byte moves for the idle timeout is closed. A websocket
//! counts under the caps for its whole life, but not under these timeouts
//! (it has its own keepalive, `ws.rs`).

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::convert::Infallible;
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, Weak};
use std::task::{Context, Poll};
use std::time::Duration;

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::Request;
use axum::Router;
use http_body_util::BodyExt;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Notify;
use tower_service::Service;

/// The caps and timeouts of connections.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Connections of any kind open at once.
    pub max: usize,
    /// Connections of any kind open at once from one client address.
    pub max_per_ip: usize,
    /// Time for a request's head to arrive.
    pub header_read: Duration,
    /// Time a request in flight may go without a byte read or written.
    pub idle: Duration,
}

/// File descriptors kept out of the connection cap: the database, the
/// listener, the table files, standard streams and the runtime's own.
pub const RESERVED_FILES: u64 = 128;

/// The open-file limit in force (soft), after raising it to the hard limit.
/// `None` where the system has no such limit.
pub fn raise_open_file_limit() -> Option<u64> {
    #[cfg(unix)]
    {
        rlimit::increase_nofile_limit(u64::MAX).ok().or_else(open_file_limit)
    }
    #[cfg(not(unix))]
    {
        None
    }
}

/// The open-file limit in force (soft), if the system has one.
pub fn open_file_limit() -> Option<u64> {
    #[cfg(unix)]
    {
        rlimit::Resource::NOFILE.get().ok().map(|(soft, _)| soft)
    }
    #[cfg(not(unix))]
    {
        None
    }
}

/// The most connections an open-file limit allows: the limit less
/// [`RESERVED_FILES`] (half the limit when that is more), at most a million.
pub fn connections_for(limit: Option<u64>) -> usize {
    let cap = match limit {
        Some(n) => n.saturating_sub(RESERVED_FILES).max(n / 2),
        None => 1 << 20,
    };
    usize::try_from(cap.min(1 << 20)).unwrap_or(1 << 20)
}

/// At most this many evicted connections may be closing at once (each
/// still holds its descriptor until its task has dropped it).
const MAX_EVICTING: usize = 64;

/// The caps' bookkeeping.
pub struct Gate {
    limits: Limits,
    state: Mutex<State>,
    /// Told whenever an evicted connection has let go of its descriptor.
    closed: Notify,
}

#[derive(Default)]
struct State {
    open: usize,
    evicting: usize,
    per_ip: HashMap<IpAddr, PerIp>,
    /// Idle connections, oldest first, by the ticket each got when it went idle.
    idle: BTreeMap<u64, (IpAddr, Weak<Conn>)>,
    next_ticket: u64,
}

#[derive(Default)]
struct PerIp {
    open: usize,
    evicting: usize,
    idle: BTreeSet<u64>,
}

impl State {
    fn per_ip(&mut self, ip: IpAddr) -> &mut PerIp {
        self.per_ip.entry(ip).or_default()
    }

    /// Marks `conn` idle: it may be evicted from now on.
    fn idle(&mut self, conn: &Arc<Conn>) {
        self.next_ticket += 1;
        let ticket = self.next_ticket;
        conn.ticket.store(ticket, Ordering::Relaxed);
        self.idle.insert(ticket, (conn.ip, Arc::downgrade(conn)));
        self.per_ip(conn.ip).idle.insert(ticket);
    }

    /// Takes `conn` off the idle list, if it is on it.
    fn unidle(&mut self, conn: &Conn) {
        let ticket = conn.ticket.swap(0, Ordering::Relaxed);
        if ticket != 0 {
            self.idle.remove(&ticket);
            if let Some(p) = self.per_ip.get_mut(&conn.ip) {
                p.idle.remove(&ticket);
            }
        }
    }

    /// Closes the idle connection of `ticket`; whether one was closed.
    fn evict(&mut self, ticket: u64) -> bool {
        let Some((ip, weak)) = self.idle.remove(&ticket) else { return false };
        let p = self.per_ip(ip);
        p.idle.remove(&ticket);
        let Some(conn) = weak.upgrade() else { return false };
        conn.ticket.store(0, Ordering::Relaxed);
        conn.evicted.store(true, Ordering::Relaxed);
        p.evicting += 1;
        self.evicting += 1;
        conn.evict.notify_one();
        true
    }

    /// Makes room under the per-address cap; whether there is room.
    fn room_for(&mut self, ip: IpAddr, max_per_ip: usize) -> bool {
        loop {
            let p = self.per_ip(ip);
            if p.open - p.evicting < max_per_ip {
                return true;
            }
            let oldest = p.idle.first().copied();
            match oldest {
                Some(t) if self.evicting < MAX_EVICTING => {
                    if self.evict(t) {
                        return true;
                    }
                }
                _ => return false,
            }
        }
    }

    /// Makes room under the global cap; whether there is room.
    fn room(&mut self, max: usize) -> bool {
        loop {
            if self.open - self.evicting < max {
                return true;
            }
            let oldest = self.idle.keys().next().copied();
            match oldest {
                Some(t) if self.evicting < MAX_EVICTING => {
                    if self.evict(t) {
                        return true;
                    }
                }
                _ => return false,
            }
        }
    }

    fn forget_if_unused(&mut self, ip: IpAddr) {
        if self.per_ip.get(&ip).is_some_and(|p| p.open == 0) {
            self.per_ip.remove(&ip);
        }
    }
}

/// Why a connection was not let in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Full {
    /// All connections are taken, none idle.
    All,
    /// The client address's connections are all taken, none idle.
    Address,
}

impl Gate {
    pub fn new(limits: Limits) -> Arc<Gate> {
        Arc::new(Gate { limits, state: Mutex::new(State::default()), closed: Notify::new() })
    }

    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Lets a connection from `ip` in, closing an idle one if a cap is full.
    pub fn admit(self: &Arc<Self>, ip: IpAddr) -> Result<Arc<Conn>, Full> {
        let mut st = self.lock();
        if !st.room_for(ip, self.limits.max_per_ip) {
            st.forget_if_unused(ip);
            return Err(Full::Address);
        }
        if !st.room(self.limits.max) {
            st.forget_if_unused(ip);
            return Err(Full::All);
        }
        st.open += 1;
        st.per_ip(ip).open += 1;
        let conn = Arc::new(Conn {
            gate: self.clone(),
            ip,
            ticket: AtomicU64::new(0),
            in_flight: AtomicU32::new(0),
            serving: AtomicBool::new(true),
            evicted: AtomicBool::new(false),
            evict: Notify::new(),
            moved: AtomicU64::new(0),
        });
        st.idle(&conn);
        Ok(conn)
    }

    /// Connections open now.
    pub fn open(&self) -> usize {
        self.lock().open
    }

    /// Lets a connection in like [`Gate::admit`], but while evicted
    /// connections are still closing (at most [`MAX_EVICTING`] at once) waits
    /// for them, up to `patience`, rather than refuse a newcomer that one of
    /// them would make room for.
    pub async fn admit_patiently(self: &Arc<Self>, ip: IpAddr, patience: Duration) -> Result<Arc<Conn>, Full> {
        let deadline = tokio::time::Instant::now() + patience;
        loop {
            let closed = self.closed.notified();
            tokio::pin!(closed);
            closed.as_mut().enable();
            match self.admit(ip) {
                Err(_) if self.lock().evicting > 0 && tokio::time::Instant::now() < deadline => {
                    let _ = tokio::time::timeout_at(deadline, closed).await;
                }
                answer => return answer,
            }
        }
    }
}

/// One connection's place under the caps, held while anything uses it:
/// its HTTP task, a request's answer, a websocket.
pub struct Conn {
    gate: Arc<Gate>,
    ip: IpAddr,
    /// Its place on the idle list (0: not idle). Changed under the gate's lock.
    ticket: AtomicU64,
    /// Requests (and websockets) in flight. Changed under the gate's lock.
    in_flight: AtomicU32,
    /// Its HTTP task still runs (a websocket's ends at the upgrade).
    serving: AtomicBool,
    evicted: AtomicBool,
    /// Told when the connection is evicted.
    evict: Notify,
    /// Reads and writes that moved bytes, for the idle timeout.
    moved: AtomicU64,
}

impl Conn {
    /// Marks a request (or a websocket) in flight until the guard drops.
    pub fn busy(self: &Arc<Self>) -> Busy {
        let mut st = self.gate.lock();
        self.in_flight.fetch_add(1, Ordering::Relaxed);
        st.unidle(self);
        Busy(self.clone())
    }

    fn stop_serving(&self) {
        let mut st = self.gate.lock();
        self.serving.store(false, Ordering::Relaxed);
        st.unidle(self);
    }
}

impl Drop for Conn {
    fn drop(&mut self) {
        let mut st = self.gate.lock();
        st.unidle(self);
        st.open -= 1;
        let evicted = self.evicted.load(Ordering::Relaxed);
        if evicted {
            st.evicting -= 1;
        }
        let p = st.per_ip(self.ip);
        p.open -= 1;
        if evicted {
            p.evicting -= 1;
        }
        st.forget_if_unused(self.ip);
        drop(st);
        if evicted {
            self.gate.closed.notify_waiters();
        }
    }
}

/// A request or websocket in flight on a connection: while one lives the
/// connection is not idle, and its place is held.
pub struct Busy(Arc<Conn>);

impl Drop for Busy {
    fn drop(&mut self) {
        let conn = &self.0;
        let mut st = conn.gate.lock();
        if conn.in_flight.fetch_sub(1, Ordering::Relaxed) == 1
            && conn.serving.load(Ordering::Relaxed)
            && !conn.evicted.load(Ordering::Relaxed)
        {
            st.idle(conn);
        }
    }
}

/// The connection a request came on, in the request's extensions: a
/// websocket takes [`Conn::busy`] for its life.
#[derive(Clone)]
pub struct ConnRef(pub Arc<Conn>);

/// The answer to a connection refused over a cap, written if the socket
/// takes it at once (the connection is closed either way).
fn refusal(full: Full) -> String {
    let message = match full {
        Full::All => "the server has all the connections it takes: try again in a moment",
        Full::Address => "this address has all the connections it may open: close some",
    };
    let body = serde_json::json!({"t": "error", "code": "too_many_connections", "message": message}).to_string();
    format!(
        "HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\nconnection: close\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    )
}

/// How long a newcomer waits for evicted connections to close.
const EVICTION_PATIENCE: Duration = Duration::from_secs(1);

/// Answers 503 and closes. What the client has sent already is read first:
/// a socket closed with unread bytes resets the connection, and the client
/// would see the reset rather than the answer.
fn refuse(stream: &TcpStream, full: Full) {
    let mut sink = [0u8; 4096];
    for _ in 0..16 {
        if !matches!(stream.try_read(&mut sink), Ok(n) if n > 0) {
            break;
        }
    }
    let _ = stream.try_write(refusal(full).as_bytes());
}

/// Accepts connections and serves `app` on each, under `gate`'s caps.
pub async fn serve(listener: TcpListener, app: Router, gate: Arc<Gate>) -> io::Result<()> {
    loop {
        let (stream, peer) = match listener.accept().await {
            Ok(c) => c,
            Err(e) if matches!(e.kind(), io::ErrorKind::ConnectionAborted | io::ErrorKind::ConnectionReset) => continue,
            Err(e) => {
                // Out of descriptors (another part of the process took them) or
                // memory: wait a little rather than spin on the same error.
                eprintln!("ur serve: accepting a connection: {e}");
                tokio::time::sleep(Duration::from_millis(100)).await;
                continue;
            }
        };
        // New connections wait in the listen queue meanwhile: the backpressure.
        match gate.admit_patiently(crate::hub::client_key(peer.ip()), EVICTION_PATIENCE).await {
            Ok(conn) => {
                tokio::spawn(serve_connection(stream, peer, conn, app.clone()));
            }
            Err(full) => refuse(&stream, full),
        }
    }
}

async fn serve_connection(stream: TcpStream, peer: SocketAddr, conn: Arc<Conn>, app: Router) {
    let limits = conn.gate.limits.clone();
    let io = TokioIo::new(Counted { inner: stream, conn: conn.clone() });
    let handle = conn.clone();
    let service = hyper::service::service_fn(move |mut req: Request<Incoming>| {
        let busy = handle.busy();
        req.extensions_mut().insert(ConnectInfo(peer));
        req.extensions_mut().insert(ConnRef(handle.clone()));
        let answer = app.clone().call(req);
        async move {
            let response = answer.await?;
            // The connection is busy until the answer's body is all written.
            Ok::<_, Infallible>(response.map(|body| {
                Body::new(body.map_frame(move |frame| {
                    let _held = &busy;
                    frame
                }))
            }))
        }
    });
    let http = hyper::server::conn::http1::Builder::new()
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_read)
        .serve_connection(io, service)
        .with_upgrades();
    tokio::pin!(http);
    // The idle timeout: checked four times per period, so a silent request
    // is closed between one and one and a quarter periods after its last byte.
    let check = limits.idle / 4;
    let (mut last, mut silent) = (conn.moved.load(Ordering::Relaxed), Duration::ZERO);
    loop {
        tokio::select! {
            _ = &mut http => break,
            _ = conn.evict.notified() => break,
            _ = tokio::time::sleep(check) => {
                let moved = conn.moved.load(Ordering::Relaxed);
                if moved != last || conn.in_flight.load(Ordering::Relaxed) == 0 {
                    (last, silent) = (moved, Duration::ZERO);
                    continue;
                }
                silent += check;
                if silent >= limits.idle {
                    break;
                }
            }
        }
    }
    conn.stop_serving();
}

/// A TCP stream that counts the reads and writes that moved bytes.
struct Counted {
    inner: TcpStream,
    conn: Arc<Conn>,
}

impl Counted {
    fn moved(&self) {
        self.conn.moved.fetch_add(1, Ordering::Relaxed);
    }
}

impl AsyncRead for Counted {
    fn poll_read(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        let r = Pin::new(&mut self.inner).poll_read(cx, buf);
        if matches!(r, Poll::Ready(Ok(()))) && buf.filled().len() > before {
            self.moved();
        }
        r
    }
}

impl AsyncWrite for Counted {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        let r = Pin::new(&mut self.inner).poll_write(cx, buf);
        if matches!(r, Poll::Ready(Ok(n)) if n > 0) {
            self.moved();
        }
        r
    }

    fn poll_write_vectored(mut self: Pin<&mut Self>, cx: &mut Context<'_>, bufs: &[io::IoSlice<'_>]) -> Poll<io::Result<usize>> {
        let r = Pin::new(&mut self.inner).poll_write_vectored(cx, bufs);
        if matches!(r, Poll::Ready(Ok(n)) if n > 0) {
            self.moved();
        }
        r
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gate(max: usize, max_per_ip: usize) -> Arc<Gate> {
        Gate::new(Limits { max, max_per_ip, header_read: Duration::from_secs(1), idle: Duration::from_secs(1) })
    }

    fn ip(n: u8) -> IpAddr {
        IpAddr::from([127, 0, 0, n])
    }

    #[test]
    fn a_full_cap_evicts_the_oldest_idle_connection_and_refuses_when_none_is_idle() {
        let g = gate(3, 2);
        let a = g.admit(ip(1)).unwrap();
        let _b = g.admit(ip(1)).unwrap();
        // ip 1 is full: its oldest idle connection (a) makes room.
        let c = g.admit(ip(1)).unwrap();
        assert!(a.evicted.load(Ordering::Relaxed));
        drop(a);
        let _busy_c = c.busy();
        // All three places are taken (b idle, c busy, d idle): d is from ip 2.
        let d = g.admit(ip(2)).unwrap();
        let _busy_d = d.busy();
        // Global cap: b is the only idle one.
        let e = g.admit(ip(3)).unwrap();
        let _busy_e = e.busy();
        assert_eq!(g.admit(ip(4)).err(), Some(Full::All));
        assert_eq!(g.admit(ip(1)).err(), Some(Full::All));
        drop((c, _busy_c));
        // c's busy guard is gone and so is c: a place is free again.
        assert!(g.admit(ip(4)).is_ok());
    }

    #[test]
    fn the_count_follows_connections_and_their_requests() {
        let g = gate(10, 10);
        let a = g.admit(ip(1)).unwrap();
        let busy = a.busy();
        drop(a);
        assert_eq!(g.open(), 1, "a request in flight holds its connection's place");
        drop(busy);
        assert_eq!(g.open(), 0);
        assert!(g.lock().per_ip.is_empty());
    }

    #[test]
    fn the_connection_cap_stays_under_the_open_file_limit() {
        assert_eq!(connections_for(Some(1024)), 896);
        assert_eq!(connections_for(Some(200)), 100);
        assert_eq!(connections_for(None), 1 << 20);
        assert_eq!(connections_for(Some(u64::MAX)), 1 << 20);
    }
}
