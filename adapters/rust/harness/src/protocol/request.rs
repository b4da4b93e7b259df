//! The grader's requests: [`Request`], one variant a verb, encoded and decoded through the one table of
//! verbs (`verbs!`), which names each verb once for both directions.

use super::{wire_error, Handle, WireError, World};

/// Tiles of a board to build: the dimension and n² row-major tiles.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Tiles {
    /// The dimension n.
    pub n: usize,
    /// n² tiles, row-major, 0 = blank.
    pub tiles: Vec<u32>,
}

impl Tiles {
    /// The tiles as rows (`tiles[row][col]`).
    pub fn rows(&self) -> Vec<Vec<u32>> {
        self.tiles.chunks(self.n.max(1)).map(<[u32]>::to_vec).collect()
    }
}

/// One request, as the grader sends it.
#[derive(Debug, Clone, PartialEq, Eq)]
#[allow(missing_docs)] // each variant is the verb of the same name in specs/protocol.md
pub enum Request {
    Hello {
        version: u32,
    },
    Board {
        world: World,
        tiles: Tiles,
    },
    BoardProbe {
        world: World,
        tiles: Tiles,
    },
    Dimension(Handle),
    Hamming(Handle),
    Manhattan(Handle),
    IsGoal(Handle),
    ToString(Handle),
    Equals(Handle, Handle),
    EqualsAsObject(Handle, Handle),
    EqualsNull(Handle),
    EqualsForeign(Handle),
    EqualsUncastable(Handle),
    Neighbors(Handle),
    /// `neighbors_texts HANDLE MAX`: `neighbors()`, then `toString()` of each of the first `MAX` boards it
    /// returned, in order (for adapters announcing `neighbor_texts`; the grader's one request for what
    /// `neighbors` and a `to_string` of each neighbor ask).
    NeighborsTexts(Handle, u32),
    /// `texts HANDLE…`: `toString()` of each board, in order (for adapters announcing `texts`; the grader's one
    /// request for a run of `to_string` requests of reference boards in a pipelined batch).
    Texts(Vec<Handle>),
    NeighborsAfter(Handle, Handle),
    NeighborsNested(Handle),
    Twin(Handle),
    Release(Vec<Handle>),
    Solver(Handle),
    SolverNull(World),
    IsSolvable(Handle),
    Moves(Handle),
    Solution(Handle),
    CountersReset,
    /// `counters_reset sites`: the counters zeroed, and call sites sampled until the next reset (for adapters
    /// announcing `call_sites`; a plain `counters_reset` stops sampling).
    CountersResetSites,
    /// `counters_reset heap`: the counters zeroed, and the queues' heap order checked until the next reset
    /// (for adapters announcing `counters_heap`, which check it only when asked: after a plain
    /// `counters_reset` or `counters_reset sites` they check none).
    CountersResetHeap,
    Counters,
    CallSites,
    /// `counters deep`: the counters, and the queues' deep memory measured (for adapters announcing
    /// `counters_deep`, which walk the queues only when asked).
    CountersDeep,
    MemoryBoard {
        world: World,
        tiles: Tiles,
    },
    MemorySolver(Handle),
    MemoryRetained(Handle),
    Api,
    Bye,
}

impl Request {
    /// Whether a successful reply to this request holds handles (which later requests may refer to).
    pub fn returns_handles(&self) -> bool {
        matches!(
            self,
            Request::Board { .. }
                | Request::BoardProbe { .. }
                | Request::Neighbors(_)
                | Request::NeighborsTexts(..)
                | Request::NeighborsAfter(..)
                | Request::NeighborsNested(_)
                | Request::Twin(_)
                | Request::Solver(_)
                | Request::SolverNull(_)
                | Request::Solution(_)
                | Request::MemorySolver(_)
        )
    }

    /// The handles the request names, to rewrite in place (resolving or renumbering references).
    pub fn handles_mut(&mut self) -> Vec<&mut Handle> {
        match self {
            Request::Dimension(h)
            | Request::Hamming(h)
            | Request::Manhattan(h)
            | Request::IsGoal(h)
            | Request::ToString(h)
            | Request::EqualsNull(h)
            | Request::EqualsForeign(h)
            | Request::EqualsUncastable(h)
            | Request::Neighbors(h)
            | Request::NeighborsTexts(h, _)
            | Request::NeighborsNested(h)
            | Request::Twin(h)
            | Request::Solver(h)
            | Request::IsSolvable(h)
            | Request::Moves(h)
            | Request::Solution(h)
            | Request::MemorySolver(h)
            | Request::MemoryRetained(h) => vec![h],
            Request::Equals(a, b) | Request::EqualsAsObject(a, b) | Request::NeighborsAfter(a, b) => vec![a, b],
            Request::Release(hs) | Request::Texts(hs) => hs.iter_mut().collect(),
            Request::Hello { .. }
            | Request::Board { .. }
            | Request::BoardProbe { .. }
            | Request::MemoryBoard { .. }
            | Request::SolverNull(_)
            | Request::CountersReset
            | Request::CountersResetSites
            | Request::CountersResetHeap
            | Request::Counters
            | Request::CallSites
            | Request::CountersDeep
            | Request::Api
            | Request::Bye => vec![],
        }
    }

    /// Encodes the request as one line (without the newline), prefixed by `id`.
    pub fn encode(&self, id: u64) -> String {
        // Plain pushes, not `format!`: this runs once per request, about 300,000 times in a Java grade, where
        // the formatting machinery cost two thirds of the grader's encoding (callgrind).
        let mut line = String::with_capacity(32);
        reference::decimal::push(&mut line, id);
        line.push(' ');
        line.push_str(self.verb());
        let word = |line: &mut String, word: &str| {
            line.push(' ');
            line.push_str(word);
        };
        let number = |line: &mut String, number: u64| {
            line.push(' ');
            reference::decimal::push(line, number);
        };
        match self {
            Request::Hello { version } => number(&mut line, u64::from(*version)),
            Request::Board { world, tiles }
            | Request::BoardProbe { world, tiles }
            | Request::MemoryBoard { world, tiles } => {
                word(&mut line, world.name());
                line.reserve(tiles.tiles.len() * 6 + 8);
                number(&mut line, tiles.n as u64);
                tiles.tiles.iter().for_each(|&tile| number(&mut line, u64::from(tile)));
            }
            Request::SolverNull(world) => word(&mut line, world.name()),
            Request::CountersDeep => word(&mut line, DEEP),
            Request::CountersResetSites => word(&mut line, SITES),
            Request::CountersResetHeap => word(&mut line, HEAP),
            Request::NeighborsTexts(h, max) => {
                line.push(' ');
                h.push_to(&mut line);
                number(&mut line, u64::from(*max));
            }
            // Every other verb's arguments are its handles, in order: `handles_mut` is their one list.
            other => {
                for handle in other.clone().handles_mut() {
                    line.push(' ');
                    handle.push_to(&mut line);
                }
            }
        }
        line
    }

    /// Decodes a request line into its ID and request.
    pub fn decode(line: &str) -> Result<(u64, Request), WireError> {
        let mut parts = line.splitn(3, ' ');
        let id = parts.next().and_then(|t| t.parse::<u64>().ok()).ok_or_else(|| wire_error("missing request id"))?;
        let verb = parts.next().ok_or_else(|| wire_error("missing verb"))?;
        Ok((id, decode_verb(verb, parts.next())?))
    }
}

/// The protocol's verbs (specs/protocol.md), one a line: the word on the wire, the requests it names, and
/// how the rest of its line (after the verb, `None` when the line ends there) is read. [`Request::verb`] and
/// the decoding are both made from this one table.
macro_rules! verbs {
    ($($name:literal => $request:pat = $decode:expr;)+) => {
        impl Request {
            /// The word the request's line starts with after its ID (specs/protocol.md).
            pub fn verb(&self) -> &'static str {
                match self {
                    $($request => $name,)+
                }
            }
        }

        /// The request of `verb` with the rest of its line.
        fn decode_verb(verb: &str, rest: Option<&str>) -> Result<Request, WireError> {
            match verb {
                $($name => $decode(verb, rest),)+
                _ => Err(unknown(verb, rest)),
            }
        }
    };
}

verbs! {
    "hello" => Request::Hello { .. } = hello;
    "board" => Request::Board { .. } = tiles(|world, tiles| Request::Board { world, tiles });
    "board_probe" => Request::BoardProbe { .. } = tiles(|world, tiles| Request::BoardProbe { world, tiles });
    "dimension" => Request::Dimension(_) = one(Request::Dimension);
    "hamming" => Request::Hamming(_) = one(Request::Hamming);
    "manhattan" => Request::Manhattan(_) = one(Request::Manhattan);
    "is_goal" => Request::IsGoal(_) = one(Request::IsGoal);
    "to_string" => Request::ToString(_) = one(Request::ToString);
    "equals" => Request::Equals(..) = two(Request::Equals);
    "equals_as_object" => Request::EqualsAsObject(..) = two(Request::EqualsAsObject);
    "equals_null" => Request::EqualsNull(_) = one(Request::EqualsNull);
    "equals_foreign" => Request::EqualsForeign(_) = one(Request::EqualsForeign);
    "equals_uncastable" => Request::EqualsUncastable(_) = one(Request::EqualsUncastable);
    "neighbors" => Request::Neighbors(_) = one(Request::Neighbors);
    "neighbors_texts" => Request::NeighborsTexts(..) = neighbors_texts;
    "texts" => Request::Texts(_) = texts;
    "neighbors_after" => Request::NeighborsAfter(..) = two(Request::NeighborsAfter);
    "neighbors_nested" => Request::NeighborsNested(_) = one(Request::NeighborsNested);
    "twin" => Request::Twin(_) = one(Request::Twin);
    "release" => Request::Release(_) = release;
    "solver" => Request::Solver(_) = one(Request::Solver);
    "solver_null" => Request::SolverNull(_) = solver_null;
    "is_solvable" => Request::IsSolvable(_) = one(Request::IsSolvable);
    "moves" => Request::Moves(_) = one(Request::Moves);
    "solution" => Request::Solution(_) = one(Request::Solution);
    "counters_reset" => Request::CountersReset | Request::CountersResetSites | Request::CountersResetHeap =
        counters_reset;
    "counters" => Request::Counters | Request::CountersDeep = keyword(DEEP, Request::Counters, Request::CountersDeep);
    "call_sites" => Request::CallSites = bare(Request::CallSites);
    "memory_board" => Request::MemoryBoard { .. } = tiles(|world, tiles| Request::MemoryBoard { world, tiles });
    "memory_solver" => Request::MemorySolver(_) = one(Request::MemorySolver);
    "memory_retained" => Request::MemoryRetained(_) = one(Request::MemoryRetained);
    "api" => Request::Api = bare(Request::Api);
    "bye" => Request::Bye = bare(Request::Bye);
}

/// The rest of a line as space-separated arguments (none when the line ends at the verb).
fn arguments(rest: Option<&str>) -> Vec<&str> {
    rest.map(|rest| rest.split(' ').collect()).unwrap_or_default()
}

fn unknown(verb: &str, rest: Option<&str>) -> WireError {
    wire_error(format!("unknown verb `{verb}` with {} arguments", arguments(rest).len()))
}

/// A verb that takes no arguments.
fn bare(request: Request) -> impl Fn(&str, Option<&str>) -> Result<Request, WireError> {
    move |verb, rest| if rest.is_none() { Ok(request.clone()) } else { Err(unknown(verb, rest)) }
}

/// A verb of one handle.
fn one(request: fn(Handle) -> Request) -> impl Fn(&str, Option<&str>) -> Result<Request, WireError> {
    move |verb, rest| match arguments(rest)[..] {
        [h] => Ok(request(h.parse()?)),
        ref args => Err(wire_error(format!("`{verb}` takes one handle, got {} arguments", args.len()))),
    }
}

/// A verb of two handles.
fn two(request: fn(Handle, Handle) -> Request) -> impl Fn(&str, Option<&str>) -> Result<Request, WireError> {
    move |verb, rest| match arguments(rest)[..] {
        [a, b] => Ok(request(a.parse()?, b.parse()?)),
        ref args => Err(wire_error(format!("`{verb}` takes two handles, got {} arguments", args.len()))),
    }
}

/// A board-building verb: a world, n and n² tiles.
fn tiles(request: fn(World, Tiles) -> Request) -> impl Fn(&str, Option<&str>) -> Result<Request, WireError> {
    move |verb, rest| decode_tiles(verb, rest.unwrap_or("")).map(|(world, tiles)| request(world, tiles))
}

fn hello(_: &str, rest: Option<&str>) -> Result<Request, WireError> {
    match arguments(rest)[..] {
        [v] => Ok(Request::Hello { version: v.parse().map_err(|_| wire_error(format!("bad version `{v}`")))? }),
        _ => Err(wire_error("`hello` takes the version")),
    }
}

/// The handles a request lists (none or more).
fn handles(rest: Option<&str>) -> Result<Vec<Handle>, WireError> {
    arguments(rest).iter().map(|h| h.parse()).collect()
}

fn release(_: &str, rest: Option<&str>) -> Result<Request, WireError> {
    Ok(Request::Release(handles(rest)?))
}

fn neighbors_texts(verb: &str, rest: Option<&str>) -> Result<Request, WireError> {
    match arguments(rest)[..] {
        [h, max] => Ok(Request::NeighborsTexts(
            h.parse()?,
            max.parse().map_err(|_| wire_error(format!("bad count of texts `{max}`")))?,
        )),
        ref args => Err(wire_error(format!("`{verb}` takes a handle and a count, got {} arguments", args.len()))),
    }
}

fn texts(verb: &str, rest: Option<&str>) -> Result<Request, WireError> {
    let handles = handles(rest)?;
    if handles.is_empty() {
        return Err(wire_error(format!("`{verb}` takes one handle or more, got none")));
    }
    Ok(Request::Texts(handles))
}

fn solver_null(_: &str, rest: Option<&str>) -> Result<Request, WireError> {
    match arguments(rest)[..] {
        [w] => Ok(Request::SolverNull(w.parse()?)),
        _ => Err(wire_error("`solver_null` takes a world")),
    }
}

/// `counters deep`: the counters with the queues' deep memory.
const DEEP: &str = "deep";
/// `counters_reset sites`: the counters zeroed, call sites sampled.
const SITES: &str = "sites";
/// `counters_reset heap`: the counters zeroed, the queues' heap order checked.
const HEAP: &str = "heap";

/// `counters_reset`, alone or with one of its two words: `sites` or `heap` (a life is either sampled, to
/// explain its counts, or judged, and only a judged life is checked for heap order).
fn counters_reset(verb: &str, rest: Option<&str>) -> Result<Request, WireError> {
    match rest {
        None => Ok(Request::CountersReset),
        Some(SITES) => Ok(Request::CountersResetSites),
        Some(HEAP) => Ok(Request::CountersResetHeap),
        Some(_) => Err(unknown(verb, rest)),
    }
}

/// A verb alone (`plain`), or followed by its one `keyword` (`with`).
fn keyword(
    keyword: &'static str,
    plain: Request,
    with: Request,
) -> impl Fn(&str, Option<&str>) -> Result<Request, WireError> {
    move |verb, rest| match rest {
        None => Ok(plain.clone()),
        Some(word) if word == keyword => Ok(with.clone()),
        Some(_) => Err(unknown(verb, rest)),
    }
}

/// The arguments of a board-building verb: the world, n and n² tiles (a 127-by-127 board's line is ~80 KB,
/// so the tiles are read in one pass, and only a malformed line takes the token-by-token path that explains it).
fn decode_tiles(verb: &str, args: &str) -> Result<(World, Tiles), WireError> {
    let mut parts = args.splitn(3, ' ');
    let (Some(world), Some(n)) = (parts.next(), parts.next()) else {
        return Err(wire_error(format!("`{verb}` takes a world, n and n² tiles")));
    };
    let n: usize = n.parse().map_err(|_| wire_error(format!("bad dimension `{n}`")))?;
    let text = parts.next();
    // The tiles in one pass; a line that is not plain single-spaced digits keeps its tokens, to be read one by
    // one below (which says which tile is bad).
    let mut tiles = Vec::with_capacity(text.map_or(0, |text| text.len() / 3));
    let fast = text.filter(|text| !text.is_empty()).and_then(|text| {
        reference::decimal::read_numbers(text, reference::decimal::Separators::SingleSpace, &mut tiles)
    });
    let tokens: Option<Vec<&str>> =
        fast.is_none().then(|| text.map(|text| text.split(' ').collect()).unwrap_or_default());
    // What is wrong is reported in this order: the count, the world, a tile.
    let got = tokens.as_ref().map_or(tiles.len(), Vec::len);
    if !(reference::board::MIN_DIMENSION..=reference::board::MAX_DIMENSION).contains(&n) || got != n * n {
        return Err(wire_error(format!("`{verb}` with n = {n} needs {} tiles, got {got}", n.saturating_mul(n))));
    }
    let world = world.parse()?;
    if let Some(tokens) = tokens {
        tiles = tokens
            .iter()
            .map(|t| t.parse::<u32>().map_err(|_| wire_error(format!("bad tile `{t}`"))))
            .collect::<Result<_, _>>()?;
    }
    Ok((world, Tiles { n, tiles }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn handle() -> impl Strategy<Value = Handle> {
        prop_oneof![
            any::<u64>().prop_map(Handle::Board),
            any::<u64>().prop_map(Handle::Solver),
            (any::<u64>(), any::<u32>()).prop_map(|(request, index)| Handle::Reply { request, index }),
        ]
    }

    fn request() -> impl Strategy<Value = Request> {
        let tiles = (2usize..5)
            .prop_flat_map(|n| proptest::collection::vec(0u32..100, n * n).prop_map(move |tiles| Tiles { n, tiles }));
        let world = prop_oneof![Just(World::Own), Just(World::Ref)];
        prop_oneof![
            any::<u32>().prop_map(|version| Request::Hello { version }),
            (world.clone(), tiles.clone()).prop_map(|(world, tiles)| Request::Board { world, tiles }),
            (world.clone(), tiles.clone()).prop_map(|(world, tiles)| Request::BoardProbe { world, tiles }),
            (world.clone(), tiles).prop_map(|(world, tiles)| Request::MemoryBoard { world, tiles }),
            handle().prop_map(Request::Dimension),
            handle().prop_map(Request::Hamming),
            handle().prop_map(Request::Manhattan),
            handle().prop_map(Request::IsGoal),
            handle().prop_map(Request::EqualsNull),
            handle().prop_map(Request::EqualsForeign),
            handle().prop_map(Request::EqualsUncastable),
            handle().prop_map(Request::Neighbors),
            (handle(), any::<u32>()).prop_map(|(h, max)| Request::NeighborsTexts(h, max)),
            handle().prop_map(Request::NeighborsNested),
            handle().prop_map(Request::Twin),
            handle().prop_map(Request::Solver),
            handle().prop_map(Request::IsSolvable),
            handle().prop_map(Request::Moves),
            (handle(), handle()).prop_map(|(a, b)| Request::NeighborsAfter(a, b)),
            handle().prop_map(Request::ToString),
            handle().prop_map(Request::Solution),
            handle().prop_map(Request::MemorySolver),
            handle().prop_map(Request::MemoryRetained),
            (handle(), handle()).prop_map(|(a, b)| Request::Equals(a, b)),
            (handle(), handle()).prop_map(|(a, b)| Request::EqualsAsObject(a, b)),
            proptest::collection::vec(handle(), 0..5).prop_map(Request::Release),
            proptest::collection::vec(handle(), 1..5).prop_map(Request::Texts),
            world.prop_map(Request::SolverNull),
            Just(Request::Counters),
            Just(Request::CallSites),
            Just(Request::CountersDeep),
            Just(Request::CountersReset),
            Just(Request::CountersResetSites),
            Just(Request::CountersResetHeap),
            Just(Request::Api),
            Just(Request::Bye),
        ]
    }

    proptest! {
        #[test]
        fn requests_round_trip(id in any::<u64>(), request in request()) {
            prop_assert_eq!(Request::decode(&request.encode(id)), Ok((id, request)));
        }

        #[test]
        fn decoding_garbage_never_panics(line in "\\PC{0,80}") {
            let _ = Request::decode(&line);
        }
    }

    /// Each way of reading a verb's arguments says what it expected.
    #[rstest::rstest]
    #[case("1 twin", "`twin` takes one handle, got 0 arguments")]
    #[case("1 equals b1", "`equals` takes two handles, got 1 arguments")]
    #[case("1 hello", "`hello` takes the version")]
    #[case("1 hello v1", "bad version `v1`")]
    #[case("1 solver_null", "`solver_null` takes a world")]
    #[case("1 bye now", "unknown verb `bye` with 1 arguments")]
    #[case("1 counters shallow", "unknown verb `counters` with 1 arguments")]
    #[case("1 release b1 x", "`x` is not a handle")]
    #[case("1 undo b1 b2", "unknown verb `undo` with 2 arguments")]
    fn malformed_requests_say_what_is_wrong(#[case] line: &str, #[case] problem: &str) {
        let error = Request::decode(line).unwrap_err();
        assert!(error.0.contains(problem), "{line:?}: {}", error.0);
    }

    /// What is wrong with a board request, in the order it is checked: the count, the world, then a tile.
    #[rstest::rstest]
    #[case("1 board", "`board` takes a world, n and n² tiles")]
    #[case("1 board own x 1 2 3 0", "bad dimension `x`")]
    #[case("1 board own 2 1 2 3", "`board` with n = 2 needs 4 tiles, got 3")]
    #[case("1 board own 2 ", "`board` with n = 2 needs 4 tiles, got 1")]
    #[case("1 board own 99999999999 1", "needs 18446744073709551615 tiles, got 1")]
    #[case("1 board mine 2 1 2 3 0", "unknown world `mine`")]
    #[case("1 board mine 2 1 2 x 0", "unknown world `mine`")]
    #[case("1 board own 2 1 2 x 0", "bad tile `x`")]
    #[case("1 board own 2 1  2 3", "bad tile ``")]
    fn malformed_board_requests_say_what_is_wrong(#[case] line: &str, #[case] problem: &str) {
        let error = Request::decode(line).unwrap_err();
        assert!(error.0.contains(problem), "{line:?}: {}", error.0);
    }

    #[test]
    fn handles_mut_reaches_every_handle_argument() {
        let mut request = Request::Equals(Handle::Board(1), Handle::Reply { request: 3, index: 1 });
        assert_eq!(request.handles_mut().len(), 2);
        let mut release = Request::Release(vec![Handle::Board(1), Handle::Board(2), Handle::Solver(3)]);
        release.handles_mut().into_iter().for_each(|h| *h = Handle::Board(0));
        assert_eq!(release, Request::Release(vec![Handle::Board(0); 3]));
        assert!(Request::Board { world: World::Own, tiles: Tiles { n: 2, tiles: vec![1, 2, 3, 0] } }
            .handles_mut()
            .is_empty());
        assert!(Request::Neighbors(Handle::Board(1)).returns_handles());
        assert!(Request::NeighborsNested(Handle::Board(1)).returns_handles());
        assert_eq!(Request::NeighborsAfter(Handle::Board(1), Handle::Board(2)).handles_mut().len(), 2);
        assert!(!Request::ToString(Handle::Board(1)).returns_handles());
    }
}
