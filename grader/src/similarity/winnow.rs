//! A file's fingerprints: every run of `k` consecutive tokens (a k-gram) hashed, and from every window of
//! `w` consecutive k-gram hashes the smallest kept (winnowing: Schleimer, Wilkerson and Aiken, "Winnowing:
//! local algorithms for document fingerprinting", SIGMOD 2003). Two files that share a run of at least
//! `k + w - 1` tokens share at least one fingerprint (the guarantee), and no run shorter than `k` can
//! make them share one (the noise threshold). Ties go as the paper's *robust* winnowing has them: a window
//! keeps the previous window's choice while it is still a smallest one, else takes its rightmost smallest,
//! so a long run of one repeated k-gram gives one fingerprint per `w` tokens, not one per token.
//!
//! Hashes are the same in every run and on every machine: a polynomial over the tokens' codes modulo 2^64
//! (rolled, one multiplication per token), then mixed (SplitMix64's finalizer) so that the smallest in a
//! window is a fair pick.

use super::tokens::Token;

/// One fingerprint: the hash of a k-gram, which file of the submission it is in, the token it starts at,
/// and the lines its first and last tokens are on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Print {
    #[allow(missing_docs)]
    pub hash: u64,
    /// The file's index in its submission.
    pub file: u16,
    /// The index of the k-gram's first token in the file.
    pub at: u32,
    #[allow(missing_docs)]
    pub first_line: u32,
    #[allow(missing_docs)]
    pub last_line: u32,
}

/// The multiplier of the rolling polynomial (odd, so multiplying by it loses nothing modulo 2^64).
const BASE: u64 = 0x9e37_79b9_7f4a_7c15;

/// SplitMix64's finalizer: every bit of the input moves every bit of the output.
fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// The hash of every k-gram of `tokens`, in order (none when there are fewer than `k` tokens).
pub fn kgram_hashes(tokens: &[Token], k: usize) -> Vec<u64> {
    if k == 0 || tokens.len() < k {
        return Vec::new();
    }
    let top = (1..k).fold(1u64, |p, _| p.wrapping_mul(BASE));
    let mut rolling = tokens[..k].iter().fold(0u64, |h, t| h.wrapping_mul(BASE).wrapping_add(t.code));
    let mut hashes = Vec::with_capacity(tokens.len() - k + 1);
    hashes.push(mix(rolling));
    for i in k..tokens.len() {
        rolling =
            rolling.wrapping_sub(tokens[i - k].code.wrapping_mul(top)).wrapping_mul(BASE).wrapping_add(tokens[i].code);
        hashes.push(mix(rolling));
    }
    hashes
}

/// The fingerprints of one file's tokens (file number `file` of its submission), in order of position.
pub fn winnow(tokens: &[Token], k: usize, w: usize, file: u16) -> Vec<Print> {
    let hashes = kgram_hashes(tokens, k);
    if hashes.is_empty() {
        return Vec::new();
    }
    let w = w.clamp(1, hashes.len());
    let print = |at: usize| Print {
        hash: hashes[at],
        file,
        at: at as u32,
        first_line: tokens[at].line,
        last_line: tokens[at + k - 1].line,
    };
    let mut prints = Vec::new();
    let mut chosen: Option<usize> = None;
    for end in (w - 1)..hashes.len() {
        let start = end + 1 - w;
        match chosen {
            Some(at) if at >= start => {
                if hashes[end] < hashes[at] {
                    chosen = Some(end);
                    prints.push(print(end));
                }
            }
            _ => {
                // the last smallest of the window: its rightmost minimum
                let at = (start..=end).rev().min_by_key(|&i| hashes[i]).unwrap_or(end);
                chosen = Some(at);
                prints.push(print(at));
            }
        }
    }
    prints
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::similarity::tokens::{tokens, Language};

    fn stream(codes: &[u64]) -> Vec<Token> {
        codes.iter().enumerate().map(|(i, &code)| Token { code, line: i as u32 + 1 }).collect()
    }

    #[test]
    fn a_rolled_hash_is_the_hash_of_its_kgram_alone() {
        let tokens = stream(&[5, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5]);
        let rolled = kgram_hashes(&tokens, 3);
        assert_eq!(rolled.len(), 9);
        for (i, hash) in rolled.iter().enumerate() {
            assert_eq!(*hash, kgram_hashes(&tokens[i..i + 3], 3)[0], "k-gram {i}");
        }
        assert_eq!(rolled[0], kgram_hashes(&stream(&[5, 1, 4]), 3)[0]);
        assert!(kgram_hashes(&tokens[..2], 3).is_empty());
    }

    #[test]
    fn every_window_holds_a_fingerprint_and_each_is_its_windows_minimum() {
        let source =
            "for (int i = 0; i < n; i++) { for (int j = 0; j < n; j++) { if (t[i][j] != i * n + j + 1) c++; } }";
        let tokens = tokens(Language::Java, source);
        let (k, w) = (5, 4);
        let hashes = kgram_hashes(&tokens, k);
        let prints = winnow(&tokens, k, w, 0);
        for start in 0..=hashes.len() - w {
            let window = start..start + w;
            let minimum = hashes[window.clone()].iter().min().unwrap();
            assert!(
                prints.iter().any(|p| window.contains(&(p.at as usize)) && p.hash == *minimum),
                "window {start} has its minimum among the fingerprints"
            );
        }
        assert!(prints.windows(2).all(|p| p[0].at < p[1].at), "in order, no position twice");
        assert!(prints.len() < hashes.len() / 2 + 2, "density about 2 / (w + 1)");
    }

    #[test]
    fn one_repeated_token_gives_one_fingerprint_a_window() {
        let tokens = stream(&[7; 100]);
        let prints = winnow(&tokens, 5, 8, 3);
        assert!(prints.iter().all(|p| p.hash == prints[0].hash && p.file == 3));
        assert_eq!(prints.len(), 12, "{:?}", prints.iter().map(|p| p.at).collect::<Vec<_>>());
        assert_eq!((prints[0].first_line, prints[0].last_line), (8, 12), "the rightmost of the first window");
    }

    #[test]
    fn short_files_have_few_or_no_fingerprints() {
        assert!(winnow(&stream(&[1, 2]), 3, 4, 0).is_empty());
        assert_eq!(winnow(&stream(&[1, 2, 3, 4]), 3, 4, 0).len(), 1, "one window, smaller than w");
    }
}
