//! The examples of the Faial paper, through the whole library: text format,
//! well-formedness, split, seq, Z3, witness replay. Every race is checked
//! for its access pair, index and thread values, not only the verdict.

use drfscan::check::{check_kernel, ArrayReport, Confidence, Options, Race, Verdict};
use drfscan::protocol::parse::parse;
use drfscan::protocol::Mode;

/// The paper's examples are one-dimensional: a block of `blockDim.x`
/// threads in a grid of `gridDim.x` blocks.
const ONE_DIM: &str =
    "assume blockDim.y == 1 && blockDim.z == 1 && gridDim.y == 1 && gridDim.z == 1;\n";

fn check(src: &str) -> ArrayReport {
    let src = format!("{ONE_DIM}{src}");
    let kernel = parse(&src).unwrap_or_else(|e| panic!("{e}\n{src}"));
    // A loaded machine gives the precondition search more time: a race no
    // precondition removes is confirmed only once every candidate is
    // refuted, which the default budget may not see through here.
    let opts = Options {
        precondition_patience: 20,
        ..Options::default()
    };
    let mut report = check_kernel(&kernel, &opts);
    assert_eq!(report.arrays.len(), 1, "{report:?}");
    report.arrays.remove(0)
}

fn racy(src: &str) -> Vec<Race> {
    let a = check(src);
    assert_eq!(a.verdict, Verdict::Racy, "{a:?}");
    assert!(!a.races.is_empty());
    a.races
}

fn drf(src: &str) {
    let a = check(src);
    assert_eq!(a.verdict, Verdict::Drf, "{a:?}");
    assert!(a.races.is_empty());
}

fn tid(r: &Race, k: usize) -> i64 {
    r.witness.threads[k]["tid.x"]
}

fn global(r: &Race, name: &str) -> i64 {
    r.witness.globals[name]
}

/// The race between access ids `a` and `b` (either order), with its threads
/// swapped if needed so that thread 0 issues `a`.
fn pair(races: &[Race], a: u32, b: u32) -> Race {
    let r = races
        .iter()
        .find(|r| {
            let ids = [r.accesses[0].id, r.accesses[1].id];
            ids == [a, b] || ids == [b, a]
        })
        .unwrap_or_else(|| panic!("no race between #{a} and #{b}: {races:?}"))
        .clone();
    if r.accesses[0].id == a {
        r
    } else {
        let mut s = r;
        s.accesses.swap(0, 1);
        s.witness.threads.swap(0, 1);
        s
    }
}

/// Listing 2.2: the read loop of one repetition meets the write loop of the
/// next.
#[test]
fn listing_2_2_is_racy() {
    let races = racy(
        "params M;
         array tile {
           for j in 0..M { rd[tid + j] }
           for i in 0..M { wr[tid] }
         }",
    );
    assert_eq!(races.len(), 1, "{races:?}");
    let r = pair(&races, 0, 1);
    assert_eq!(
        (r.accesses[0].mode, r.accesses[1].mode),
        (Mode::Read, Mode::Write)
    );
    let (t1, t2) = (tid(&r, 0), tid(&r, 1));
    let j = r.witness.threads[0]["j"];
    assert_eq!(r.index, vec![t1 + j]);
    assert_eq!(r.index, vec![t2]);
    assert!(j >= 1 && j < global(&r, "M"), "{r:?}");
    assert_eq!(r.confidence, Confidence::Confirmed);
}

/// Listing 2.3: the inter-iteration race of the transpose, and its fix.
#[test]
fn listing_2_3_inter_iteration_race() {
    let races = racy(
        "params N M;
         array tile {
           for r in 0..N {
             for i in 0..M { wr[tid] }
             sync;
             for j in 0..M { rd[tid + j] }
           }
         }",
    );
    let r = pair(&races, 1, 0);
    let (t1, t2) = (tid(&r, 0), tid(&r, 1));
    let j = r.witness.threads[0]["j"];
    assert_eq!(r.index, vec![t1 + j]);
    assert_eq!(r.index, vec![t2]);
    // The read of one repetition meets the write of the next: it takes two
    // repetitions, and the witness names one of them.
    let (rep, n) = (global(&r, "r"), global(&r, "N"));
    assert!(n >= 2 && (0..n).contains(&rep), "{r:?}");
    assert!(j >= 1 && j < global(&r, "M"));
    assert!(races.iter().all(|r| r.confidence == Confidence::Confirmed));

    drf("params N M;
         array tile {
           for r in 0..N {
             for i in 0..M { wr[tid] }
             sync;
             for j in 0..M { rd[tid + j] }
             sync;
           }
         }");
}

/// Fig. 15 first-iter: `wr[tid+1]` meets `wr[tid]` of the first iteration.
#[test]
fn fig_15_first_iter() {
    let races = racy(
        "params N;
         array a {
           wr[tid + 1];
           for x in 0..N { wr[tid]; sync }
         }",
    );
    assert_eq!(races.len(), 1, "{races:?}");
    let r = pair(&races, 0, 1);
    assert_eq!(tid(&r, 0) + 1, tid(&r, 1));
    assert_eq!(r.index, vec![tid(&r, 1)]);
    assert!(global(&r, "N") >= 1);

    drf("params N;
         array a {
           wr[tid + 1];
           for x in 0..N { if x > 0 { wr[tid] } sync }
         }");
}

/// Fig. 15 last-iter: `wr[tid+1]` of the last iteration meets `wr[tid+T]`.
#[test]
fn fig_15_last_iter() {
    let races = racy(
        "params N T;
         assume T == blockDim.x;
         array a {
           for x in 0..N { sync; wr[tid + 1] }
           wr[tid + T]
         }",
    );
    assert_eq!(races.len(), 1, "{races:?}");
    let r = pair(&races, 0, 1);
    let t = global(&r, "T");
    assert_eq!(t, global(&r, "blockDim.x"));
    assert_eq!((tid(&r, 0), tid(&r, 1)), (t - 1, 0));
    assert_eq!(r.index, vec![t]);
    assert!(global(&r, "N") >= 1);

    drf("params N T;
         assume T == blockDim.x;
         array a {
           for x in 0..N { sync; if tid < T - 1 { wr[tid + 1] } }
           wr[tid + T]
         }");
}

/// Fig. 15 last-iter-first-iter: the last iteration of the nested loop meets
/// the first iteration of the following loop.
#[test]
fn fig_15_last_iter_first_iter() {
    let races = racy(
        "params N;
         array a {
           for x in 1..N + 1 {
             for y in 1..x + 1 { sync; wr[tid + x + y] }
           }
           for z in N * 2..N * 3 { wr[tid + z + 1]; sync }
         }",
    );
    assert_eq!(races.len(), 1, "{races:?}");
    let r = pair(&races, 0, 1);
    let n = global(&r, "N");
    assert!(n >= 1);
    // x = y = N writes a[tid + 2N]; z = 2N writes a[tid + 2N + 1].
    assert_eq!(tid(&r, 0), tid(&r, 1) + 1);
    assert_eq!(r.index, vec![tid(&r, 0) + 2 * n]);

    drf("params N;
         array a {
           for x in 1..N + 1 {
             for y in 1..x + 1 { sync; wr[tid + x + y] }
           }
           for z in N * 2..N * 3 { wr[tid + z]; sync }
         }");
}

/// Example 4: `wr[tid + 1]; rd[tid + 2]; sync` — the write of one thread
/// meets the read of its left neighbour.
#[test]
fn example_4() {
    let races = racy("array a { wr[tid + 1]; rd[tid + 2]; sync }");
    let r = pair(&races, 0, 1);
    assert_eq!(tid(&r, 0), tid(&r, 1) + 1);
    assert_eq!(r.index, vec![tid(&r, 0) + 1]);

    drf("array a { wr[tid + 1]; sync; rd[tid + 2]; sync }");
}

/// Fig. 16: `x` is read from memory, so both protocols race at protocol
/// level, and only possibly.
#[test]
fn fig_16_read_index() {
    for (write, offset) in [("wr[x + 1]", 1), ("wr[x]", 0)] {
        let races = racy(&format!(
            "locals x; array A {{ wr[tid]; rd[tid]; {write} }}"
        ));
        for r in &races {
            let ids = [r.accesses[0].id, r.accesses[1].id];
            assert!(
                ids.contains(&2),
                "every race involves the write through x: {r:?}"
            );
            assert_eq!(r.confidence, Confidence::Possible);
        }
        // Against the write of another thread's own cell.
        let r = pair(&races, 2, 0);
        assert_eq!(r.witness.threads[0]["x"] + offset, tid(&r, 1));
        assert_eq!(r.index, vec![tid(&r, 1)]);
    }
}

/// A barrier under a thread-dependent loop bound is barrier divergence.
#[test]
fn divergent_barrier() {
    let a = check("params N; array a { for i in 0..tid { wr[tid]; sync } }");
    assert_eq!(a.verdict, Verdict::Divergent, "{a:?}");
    assert!(a.loc.is_some() && a.reason.is_some());
}

/// Global arrays are also seen by other blocks, where barriers order nothing.
#[test]
fn global_arrays_race_across_blocks() {
    let src = "global array g { wr[tid]; sync; rd[tid + 1] }";
    let races = racy(src);
    let r = pair(&races, 0, 0);
    assert_ne!(r.witness.threads[0]["bid.x"], r.witness.threads[1]["bid.x"]);
    assert_eq!(tid(&r, 0), tid(&r, 1));

    let kernel = parse(&format!("{ONE_DIM}{src}")).unwrap();
    let block_level = check_kernel(
        &kernel,
        &Options {
            block_level: true,
            ..Options::default()
        },
    );
    assert_eq!(block_level.verdict(), Verdict::Drf, "{block_level:?}");
}
