//! The default budget: how many boards an A* may store before `solver` gives up, sized to the machine.
//!
//! The assignment's A* keeps every board it makes; on the hardest 4x4 puzzles that is tens of gigabytes and
//! the kernel kills the process. Half the machine's memory (`MemTotal` in `/proc/meminfo`, 8 GB where that
//! cannot be read), divided by the bytes a stored board costs, leaves room for everything else.

/// Bytes a stored board costs the reference A*: its search node, queue entry and the board itself
/// (measured: 166 MB for 2.47 million boards of a 4x4 search, about 67 bytes each).
pub fn reference_bytes_per_board(board_bytes: usize) -> u64 {
    35 + board_bytes as u64
}

/// Bytes a stored position costs the toolkit's searches (hash-map entry plus queue entry, with slack).
pub const TOOLKIT_BYTES_PER_BOARD: u64 = 128;

/// The memory the default budget may use: half of the machine's.
pub fn memory_allowance() -> u64 {
    let total = std::fs::read_to_string("/proc/meminfo").ok().and_then(|text| {
        let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
        line.split_whitespace().nth(1)?.parse::<u64>().ok().map(|kb| kb * 1024)
    });
    total.unwrap_or(16 << 30) / 2
}

/// The message when a search stops at its budget.
pub fn gave_up(boards: u64, bytes_per_board: u64) -> String {
    let about = reference::toolkit::compare::human_bytes(boards.saturating_mul(bytes_per_board));
    format!("gave up after {boards} boards (about {about}); try --optimal")
}
