//! Time limits on solver checks, kept by one alarm thread of this process
//! instead of Z3's own timer.
//!
//! Z3 4.8.12 (Debian's) runs its per-check timer on a pool of timer threads
//! that can deadlock when a timer expires while another is being returned
//! to the pool: the check then never comes back, and the process sits idle.
//! Some kernels' queries hit it every time. Interrupting the context from a
//! thread of our own (`Z3_interrupt`, which Z3 supports from any thread)
//! needs no timer inside Z3 at all.
//!
//! A limit counts the processor time of the thread that runs the check,
//! not the time on the wall: a scan runs more checks than the machine has
//! cores, and a proof that takes 3 s alone took more than its 5 s on a
//! busy machine, so verdicts changed with the load. The alarm thread
//! sleeps until the soonest moment the limit could be spent (a thread's
//! time runs no faster than the wall's) and reads the thread's clock then.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, OnceLock};
use std::time::{Duration, Instant};
use z3::{SatResult, Solver};

/// One check waiting for its limit.
struct Armed {
    id: u64,
    /// The solver's `Z3_context`, as an address: it outlives the check.
    context: usize,
    /// When to look next: at the limit's soonest end, then every
    /// [`REPEAT`] once fired.
    at: Instant,
    started: Instant,
    /// The checking thread's clock and its reading when the check began;
    /// `None` where the system has none, and the wall's time counts.
    clock: Option<(libc::clockid_t, Duration)>,
    limit: Duration,
    fired: Arc<AtomicBool>,
}

/// The processor time of the calling thread's clock, to be read from any
/// thread of the process while the thread lives.
fn thread_clock() -> Option<(libc::clockid_t, Duration)> {
    let mut clock: libc::clockid_t = 0;
    // SAFETY: `pthread_self` is the calling thread; the id is written only.
    let ok = unsafe { libc::pthread_getcpuclockid(libc::pthread_self(), &mut clock) } == 0;
    let now = ok.then(|| read_clock(clock)).flatten()?;
    Some((clock, now))
}

fn read_clock(clock: libc::clockid_t) -> Option<Duration> {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `t` is written only.
    if unsafe { libc::clock_gettime(clock, &mut t) } != 0 {
        return None;
    }
    Some(Duration::new(t.tv_sec as u64, t.tv_nsec as u32))
}

impl Armed {
    /// The time the check has spent: its thread's, or the wall's.
    fn spent(&self, now: Instant) -> Duration {
        match self
            .clock
            .and_then(|(c, from)| Some(read_clock(c)?.saturating_sub(from)))
        {
            Some(d) => d,
            None => now.saturating_duration_since(self.started),
        }
    }
}

struct Alarms {
    armed: Mutex<Vec<Armed>>,
    changed: Condvar,
    next: AtomicU64,
}

fn alarms() -> &'static Alarms {
    static ALARMS: OnceLock<&'static Alarms> = OnceLock::new();
    ALARMS.get_or_init(|| {
        let alarms: &'static Alarms = Box::leak(Box::new(Alarms {
            armed: Mutex::new(Vec::new()),
            changed: Condvar::new(),
            next: AtomicU64::new(0),
        }));
        std::thread::Builder::new()
            .name("drfscan-solver-alarm".into())
            .spawn(move || ring(alarms))
            .expect("the solver alarm thread starts");
        alarms
    })
}

/// How often a check that is past its time is interrupted again: Z3 can
/// miss an interrupt (one that lands while a tactic resets its limits, or
/// inside a nonlinear procedure that polls rarely), and one missed
/// interrupt would otherwise leave the check running for ever.
const REPEAT: Duration = Duration::from_millis(200);

/// Interrupts each check whose time is up, and again every [`REPEAT`]
/// until it returns. The lock is held while interrupting, so a check that
/// has already disarmed is never touched.
fn ring(alarms: &Alarms) {
    let mut armed = alarms.armed.lock().unwrap_or_else(|e| e.into_inner());
    loop {
        let now = Instant::now();
        for a in armed.iter_mut().filter(|a| a.at <= now) {
            if !a.fired.load(Ordering::SeqCst) {
                let spent = a.spent(now);
                if spent < a.limit {
                    a.at = now + (a.limit - spent);
                    continue;
                }
            }
            a.fired.store(true, Ordering::SeqCst);
            if let Some(context) = std::ptr::NonNull::new(a.context as *mut z3_sys::_Z3_context) {
                // SAFETY: the context lives until its check disarms, which
                // takes this lock first.
                unsafe { z3_sys::Z3_interrupt(context) };
            }
            a.at = now + REPEAT;
        }
        armed = match armed.iter().map(|a| a.at).min() {
            None => alarms
                .changed
                .wait(armed)
                .unwrap_or_else(|e| e.into_inner()),
            Some(at) => {
                alarms
                    .changed
                    .wait_timeout(armed, at.saturating_duration_since(now))
                    .unwrap_or_else(|e| e.into_inner())
                    .0
            }
        };
    }
}

/// The alarm of one check; dropping it disarms.
struct Guard(Option<u64>);

impl Drop for Guard {
    fn drop(&mut self) {
        if let Some(id) = self.0 {
            let mut armed = alarms().armed.lock().unwrap_or_else(|e| e.into_inner());
            armed.retain(|a| a.id != id);
        }
    }
}

/// `solver.check()` within `ms` milliseconds of this thread's processor
/// time (0 = no limit), with whether the limit ended it.
pub fn check(solver: &Solver, ms: u64) -> (SatResult, bool) {
    let fired = Arc::new(AtomicBool::new(false));
    let guard = if ms == 0 {
        Guard(None)
    } else {
        let alarms = alarms();
        let id = alarms.next.fetch_add(1, Ordering::Relaxed);
        let context = solver.get_context().get_z3_context().as_ptr() as usize;
        let limit = Duration::from_millis(ms);
        let started = Instant::now();
        alarms
            .armed
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(Armed {
                id,
                context,
                at: started + limit,
                started,
                clock: thread_clock(),
                limit,
                fired: fired.clone(),
            });
        alarms.changed.notify_one();
        Guard(Some(id))
    };
    let result = solver.check();
    drop(guard);
    let fired = fired.load(Ordering::SeqCst);
    if fired {
        clear_interrupt(solver.get_context().get_z3_context());
    }
    if fired && result == SatResult::Sat {
        // Z3 noticed the interrupt only once it had its answer: the model
        // it is building may be cut short (unassigned variables read as 0,
        // a block of size 0), so the answer counts as the time-out it is.
        return (SatResult::Unknown, true);
    }
    (result, fired && result == SatResult::Unknown)
}

/// Lifts an interrupt from `context`. One that lands after the check has
/// returned stays on the context: until the next check, Z3 declines to
/// evaluate any model of it (a witness read then has every variable 0) or
/// to simplify. A check clears it as it starts; an empty one costs
/// microseconds.
fn clear_interrupt(context: z3_sys::Z3_context) {
    // SAFETY: a solver of its own, released before returning, on a context
    // the caller's solver keeps alive; this thread is the context's only
    // user, and no alarm is armed on it now.
    unsafe {
        if let Some(empty) = z3_sys::Z3_mk_solver(context) {
            z3_sys::Z3_solver_inc_ref(context, empty);
            z3_sys::Z3_solver_check(context, empty);
            z3_sys::Z3_solver_dec_ref(context, empty);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use z3::ast::Int;

    /// `x³ + y³ = z³` over integers above 1: Z3 cannot settle it.
    fn fermat(solver: &Solver) {
        let v: Vec<Int> = ["x", "y", "z"].iter().map(|n| Int::new_const(*n)).collect();
        for x in &v {
            solver.assert(x.gt(Int::from_i64(1)));
        }
        let cube = |x: &Int| x.clone() * x.clone() * x.clone();
        solver.assert((cube(&v[0]) + cube(&v[1])).eq(cube(&v[2])));
    }

    #[test]
    fn a_check_stops_at_its_limit_and_the_next_one_is_unharmed() {
        let solver = Solver::new();
        for _ in 0..3 {
            solver.push();
            fermat(&solver);
            let started = Instant::now();
            assert_eq!(check(&solver, 100), (SatResult::Unknown, true));
            assert!(started.elapsed() < Duration::from_secs(5));
            solver.pop(1);
            solver.push();
            solver.assert(Int::new_const("x").gt(Int::from_i64(5)));
            assert_eq!(check(&solver, 100), (SatResult::Sat, false));
            solver.pop(1);
        }
    }

    #[test]
    fn an_interrupt_after_the_check_leaves_its_models_readable() {
        let solver = Solver::new();
        let x = Int::new_const("x");
        solver.assert(x.gt(Int::from_i64(5)));
        assert_eq!(check(&solver, 0), (SatResult::Sat, false));
        let model = solver.get_model().expect("a model");
        let context = solver.get_context().get_z3_context();
        // The alarm of a check that has just returned.
        unsafe { z3_sys::Z3_interrupt(context) };
        assert_eq!(model.eval(&x, true).and_then(|v| v.as_i64()), None);
        clear_interrupt(context);
        assert_eq!(model.eval(&x, true).and_then(|v| v.as_i64()), Some(6));
    }

    #[test]
    fn a_thread_that_waits_spends_none_of_its_limit() {
        let (clock, from) = thread_clock().expect("threads have processor clocks here");
        let started = Instant::now();
        std::thread::sleep(Duration::from_millis(300));
        let armed = Armed {
            id: 0,
            context: 0,
            at: started,
            started,
            clock: Some((clock, from)),
            limit: Duration::from_millis(100),
            fired: Arc::new(AtomicBool::new(false)),
        };
        assert!(armed.spent(Instant::now()) < Duration::from_millis(100));
        let wall = Armed {
            clock: None,
            ..armed
        };
        assert!(wall.spent(Instant::now()) >= Duration::from_millis(300));
    }

    #[test]
    fn checks_on_many_threads_each_keep_their_own_limit() {
        let handles: Vec<_> = (0..4)
            .map(|k| {
                std::thread::spawn(move || {
                    let solver = Solver::new();
                    fermat(&solver);
                    let (result, fired) = check(&solver, 50 + 50 * k);
                    (result, fired)
                })
            })
            .collect();
        for h in handles {
            assert_eq!(h.join().unwrap(), (SatResult::Unknown, true));
        }
    }
}
