//! The network's properties: exact incremental updates, equal SIMD and scalar kernels, and a
//! file format that refuses every damaged file without panicking.

use super::features::{BUCKETED_INPUTS, INPUTS};
use super::kernels::{scalar, simd};
use super::*;
use crate::random::Rng;
use xiangqi::{Move, Position};

/// A network with random weights as large as the range checks allow.
fn random_network(hidden: usize, seed: u64) -> Network {
    random_bucketed_network(hidden, 1, seed)
}

/// [`random_network`] with `buckets` output buckets.
fn random_bucketed_network(hidden: usize, buckets: usize, seed: u64) -> Network {
    random_shaped_network(hidden, false, buckets, seed)
}

/// [`random_network`] with king buckets or not and `buckets` output buckets.
fn random_shaped_network(hidden: usize, king_buckets: bool, buckets: usize, seed: u64) -> Network {
    let inputs = if king_buckets {
        BUCKETED_INPUTS
    } else {
        INPUTS
    };
    let mut rng = Rng::new(seed);
    let mut draw = |n: usize, limit: i64| {
        (0..n)
            .map(|_| (rng.below(2 * limit as u64 + 1) as i64 - limit) as i16)
            .collect::<Vec<i16>>()
    };
    let feature_weights = draw(inputs * hidden, 900);
    let feature_bias = draw(hidden, 300);
    let output_weights = draw(buckets * 2 * hidden, 127);
    let output_bias = (0..buckets as i32).map(|b| -1234 + 500 * b).collect();
    Network::from_layers(feature_weights, feature_bias, output_weights, output_bias)
        .expect("weights within range")
}

/// Plays random legal moves from the start, checking the incremental sums against fresh ones
/// after every move and every unmake.
#[test]
fn incremental_sums_equal_fresh_ones() {
    incremental_sums_equal_fresh_ones_in(&random_network(32, 1));
}

/// The same with king buckets, where a general's move refreshes its side's sums.
#[test]
fn incremental_sums_equal_fresh_ones_with_king_buckets() {
    incremental_sums_equal_fresh_ones_in(&random_shaped_network(32, true, 2, 1));
}

fn incremental_sums_equal_fresh_ones_in(network: &Network) {
    let network = network.clone();
    let mut general_moves = 0;
    let mut rng = Rng::new(2);
    for _game in 0..20 {
        let mut pos = Position::startpos();
        let mut accumulators = Accumulators::new(&network, &pos, 8);
        let mut played = Vec::new();
        for _ply in 0..120 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let m: Move = moves[rng.below(moves.len() as u64) as usize];
            if pos.piece_at(m.from()).map(|p| p.kind) == Some(xiangqi::PieceKind::General) {
                general_moves += 1;
            }
            accumulators.push_move(&network, &pos, m);
            played.push((m, pos.make_move(m)));
            let fresh = Accumulators::new(&network, &pos, 0);
            assert_eq!(accumulators.top(), fresh.top(), "after {m}");
            assert_eq!(
                accumulators.evaluate(&network, &pos),
                network.evaluate(&pos)
            );
            // Now and then take a few moves back and check again.
            if rng.below(8) == 0 {
                for _ in 0..rng.below(3).min(played.len() as u64) {
                    let (m, undo) = played.pop().expect("counted");
                    pos.unmake_move(m, undo);
                    accumulators.pop();
                    assert_eq!(
                        accumulators.top(),
                        Accumulators::new(&network, &pos, 0).top()
                    );
                }
            }
        }
    }
    assert!(general_moves > 20, "{general_moves} general moves");
}

#[test]
fn a_null_move_keeps_the_sums_and_hands_the_move_over() {
    let network = random_network(16, 3);
    let mut pos = Position::startpos();
    let mut accumulators = Accumulators::new(&network, &pos, 2);
    let before = accumulators.top().to_vec();
    accumulators.push_same();
    let _undo = pos.make_null();
    assert_eq!(accumulators.top(), before);
    assert_eq!(
        accumulators.evaluate(&network, &pos),
        network.evaluate(&pos)
    );
}

#[test]
fn simd_and_scalar_kernels_agree() {
    let mut rng = Rng::new(4);
    for hidden in [16, 64, 1024] {
        let mut draw = |limit: i64| {
            (0..hidden)
                .map(|_| (rng.below(2 * limit as u64 + 1) as i64 - limit) as i16)
                .collect::<Vec<i16>>()
        };
        // Sums spread over the whole range the checks allow, so clipping happens on both
        // sides; output weights at their limits.
        let sums = draw(32_000);
        let weights = draw(127);
        let (a, b, c) = (draw(900), draw(900), draw(900));
        assert_eq!(
            simd::output(&sums, &weights),
            scalar::output(&sums, &weights)
        );
        let saturated = vec![QA as i16; hidden];
        let top = vec![127; hidden];
        assert_eq!(
            simd::output(&saturated, &top),
            scalar::output(&saturated, &top)
        );
        let (mut x, mut y) = (vec![0; hidden], vec![0; hidden]);
        simd::add_sub(&mut x, &sums, &a, &b);
        scalar::add_sub(&mut y, &sums, &a, &b);
        assert_eq!(x, y);
        simd::add_sub_sub(&mut x, &sums, &a, &b, &c);
        scalar::add_sub_sub(&mut y, &sums, &a, &b, &c);
        assert_eq!(x, y);
        simd::add_assign(&mut x, &a);
        scalar::add_assign(&mut y, &a);
        assert_eq!(x, y);
    }
}

#[test]
fn the_output_of_both_kernels_is_the_same_on_real_positions() {
    for buckets in [1, 8] {
        let network = random_bucketed_network(64, buckets, 5);
        let mut pos = Position::startpos();
        let mut rng = Rng::new(6);
        for _ in 0..200 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos.make_move(moves[rng.below(moves.len() as u64) as usize]);
            let accumulators = Accumulators::new(&network, &pos, 0);
            let (red, black) = accumulators.top().split_at(64);
            let pieces = pos.occupied().count();
            assert_eq!(
                network.output(red, black, pieces),
                network.output_scalar(red, black, pieces)
            );
            assert_eq!(
                network.output(black, red, pieces),
                network.output_scalar(black, red, pieces)
            );
        }
    }
}

#[test]
fn output_buckets_cut_the_piece_counts_into_equal_parts() {
    let buckets_of = |buckets: usize| -> Vec<usize> {
        (2..=32)
            .map(|pieces| output_bucket(pieces, buckets))
            .collect()
    };
    assert!(buckets_of(1).iter().all(|&b| b == 0));
    let eight = buckets_of(8);
    // 2–4, then four counts a bucket: 5–8, 9–12, …, 29–32.
    assert_eq!(&eight[..3], &[0, 0, 0]);
    for (i, &bucket) in eight.iter().enumerate().skip(3) {
        assert_eq!(bucket, (i - 3) / 4 + 1, "{} pieces", i + 2);
    }
    let four = buckets_of(4);
    assert_eq!(
        [
            four[8 - 2],
            four[9 - 2],
            four[16 - 2],
            four[17 - 2],
            four[32 - 2]
        ],
        [0, 1, 1, 2, 3]
    );
}

#[test]
fn the_bucket_of_the_piece_count_evaluates() {
    // No first-layer weights: each bucket's value is its bias, 400 × (bucket + 1).
    let (hidden, buckets) = (16, 8);
    let bias = (1..=buckets as i32).map(|b| b * QA * QB).collect();
    let network = Network::from_layers(
        vec![0; INPUTS * hidden],
        vec![0; hidden],
        vec![0; buckets * 2 * hidden],
        bias,
    )
    .unwrap();
    let value = |fen: &str| network.evaluate(&Position::from_fen(fen).unwrap());
    // Three pieces: bucket 0. The start, 32: bucket 7.
    assert_eq!(value("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1"), 400);
    assert_eq!(network.evaluate(&Position::startpos()), 3200);
}

#[test]
fn the_value_follows_the_documented_formula() {
    // One unit: bias 100, output weight 2 for the side to move, 0 for the other, bias 0.
    let mut feature_weights = vec![0; INPUTS * 16];
    feature_weights[0] = 50; // Red's own general on a0 (never in a real game; fine here)
    let mut output_weights = vec![0; 32];
    output_weights[0] = 2;
    let network =
        Network::from_parts(feature_weights, vec![100; 16], output_weights, 0).expect("in range");
    let sums = vec![100; 16];
    // (100² · 2 / 255 + 0) · 400 / (255 · 64) = (78) · 400 / 16320 = 1 (toward zero)
    assert_eq!(network.output(&sums, &sums, 32), 78 * 400 / 16320);
    let high = vec![255; 16];
    // (255² · 2 / 255) · 400 / 16320 = 510 · 400 / 16320 = 12
    assert_eq!(network.output(&high, &sums, 32), 12);
}

#[test]
fn a_file_round_trips() {
    let network = random_network(32, 7);
    let bytes = network.to_bytes();
    assert_eq!(bytes.len(), 32 + 2 * (INPUTS * 32 + 32 + 64) + 4);
    assert_eq!((bytes[8], bytes[22]), (1, 0), "one bucket: version 1");
    let read = Network::from_bytes(&bytes).expect("a written file reads");
    assert_eq!(read, network);
    assert_eq!(read.to_bytes(), bytes);
    let bucketed = random_bucketed_network(32, 4, 7);
    let bytes = bucketed.to_bytes();
    assert_eq!(bytes.len(), 32 + 2 * (INPUTS * 32 + 32 + 4 * 64) + 4 * 4);
    assert_eq!((bytes[8], bytes[22]), (2, 4), "version 2, four buckets");
    let read = Network::from_bytes(&bytes).expect("a written file reads");
    assert_eq!((read.output_buckets(), &read), (4, &bucketed));
    assert_eq!(read.to_bytes(), bytes);
}

#[test]
fn a_network_with_king_buckets_round_trips_and_reads_the_general_s_square() {
    let network = random_shaped_network(16, true, 1, 7);
    let bytes = network.to_bytes();
    assert_eq!(bytes.len(), 32 + 2 * (BUCKETED_INPUTS * 16 + 16 + 32) + 4);
    let header = |b: &[u8], at: usize| u16::from_le_bytes([b[at], b[at + 1]]);
    assert_eq!(
        (header(&bytes, 8), header(&bytes, 10), header(&bytes, 22)),
        (2, 11340, 1)
    );
    let read = Network::from_bytes(&bytes).expect("a written file reads");
    assert!(read.has_king_buckets());
    assert_eq!(read, network);
    every_damage_is_refused(bytes.clone());
    // Version 1 has no king buckets.
    let mut old = bytes.clone();
    old[8] = 1;
    old[22] = 0;
    assert!(matches!(
        Network::from_bytes(&old),
        Err(NetworkError::Header {
            field: "inputs",
            ..
        })
    ));

    // One weight, for Red's chariot on a0 while Red's general stands on e0 (bucket 1): the
    // same chariot counts with the general on e0 and not with it on d0.
    let hidden = 16;
    let mut weights = vec![0i16; BUCKETED_INPUTS * hidden];
    weights[(INPUTS + 4 * 90) * hidden] = 255;
    let mut output = vec![0i16; 2 * hidden];
    output[0] = 64;
    let network = Network::from_layers(weights, vec![0; hidden], output, vec![0]).unwrap();
    let value = |fen: &str| network.evaluate(&Position::from_fen(fen).unwrap());
    assert_eq!(value("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1"), 400);
    assert_eq!(value("4k4/9/9/9/9/9/9/9/9/R2K5 w - - 0 1"), 0);
}

#[test]
fn every_damaged_file_is_refused_with_a_reason() {
    every_damage_is_refused(random_network(16, 8).to_bytes());
    let bucketed = random_bucketed_network(16, 3, 8).to_bytes();
    every_damage_is_refused(bucketed.clone());
    // A version-2 file must say how many buckets (2 to 8); a version-1 file must say none.
    for (version, buckets) in [(2, 0), (2, 1), (2, 9), (1, 3)] {
        let mut header = bucketed.clone();
        header[8] = version;
        header[22] = buckets;
        assert!(
            matches!(
                Network::from_bytes(&header),
                Err(NetworkError::Header { .. })
            ),
            "version {version}, {buckets} buckets"
        );
    }
}

fn every_damage_is_refused(bytes: Vec<u8>) {
    for cut in [0, 7, 31, 32, 33, bytes.len() - 1] {
        assert!(Network::from_bytes(&bytes[..cut]).is_err(), "cut at {cut}");
    }
    let mut longer = bytes.clone();
    longer.push(0);
    assert!(matches!(
        Network::from_bytes(&longer),
        Err(NetworkError::Length { .. })
    ));
    // Every single flipped bit, anywhere, is caught (header fields or the checksum).
    let mut rng = Rng::new(9);
    for _ in 0..2000 {
        let mut damaged = bytes.clone();
        let at = rng.below(bytes.len() as u64) as usize;
        damaged[at] ^= 1 << rng.below(8);
        assert!(
            Network::from_bytes(&damaged).is_err(),
            "bit flipped at byte {at}"
        );
    }
    let mut version = bytes.clone();
    version[8] = 3;
    assert_eq!(Network::from_bytes(&version), Err(NetworkError::Version(3)));
    assert_eq!(
        Network::from_bytes(b"hello world, this is no network"),
        Err(NetworkError::TooShort(31))
    );
}

#[test]
fn weights_that_could_overflow_are_refused() {
    let hidden = 16;
    let mut feature_weights = vec![0; INPUTS * hidden];
    feature_weights[5 * hidden] = 1100; // 32 × 1100 > 32767
    assert!(matches!(
        Network::from_parts(feature_weights, vec![0; hidden], vec![0; 2 * hidden], 0),
        Err(NetworkError::Range(_))
    ));
    let mut output_weights = vec![0; 2 * hidden];
    output_weights[3] = 128;
    assert!(matches!(
        Network::from_parts(vec![0; INPUTS * hidden], vec![0; hidden], output_weights, 0),
        Err(NetworkError::Range(_))
    ));
    assert!(Network::from_parts(vec![0; INPUTS * 24], vec![0; 24], vec![0; 48], 0).is_err());
}

#[test]
fn a_network_that_counts_one_chariot() {
    let hidden = 16;
    let mut weights = vec![0i16; INPUTS * hidden];
    weights[(4 * 90) * hidden] = 255; // an own chariot on the own a-file corner, unit 0
    weights[(11 * 90 + 81) * hidden + 1] = 255; // the opponent's on the far corner, unit 1
    let mut output = vec![0i16; 2 * hidden];
    output[0] = 64;
    output[1] = -64;
    let network = Network::from_parts(weights, vec![0; hidden], output, 0).unwrap();
    let red = Position::from_fen("3k5/9/9/9/9/9/9/9/9/R3K4 w - - 0 1").unwrap();
    let black = Position::from_fen("3k5/9/9/9/9/9/9/9/9/R3K4 b - - 0 1").unwrap();
    assert_eq!(network.evaluate(&red), 400);
    assert_eq!(network.evaluate(&black), -400);
}

#[test]
fn the_embedded_network_loads_and_evaluates_within_bounds() {
    let network = embedded();
    assert_eq!(Network::from_bytes(EMBEDDED).expect("it loads"), *network);
    let value = network.evaluate(&Position::startpos());
    assert!(value.abs() < 200, "the start is about level: {value}");
}

/// `/dev/zero` never ends and a sparse file can claim 10 GB: both are refused unread, by what
/// they are and by their length.
#[test]
fn a_device_or_a_huge_file_is_refused_unread() {
    let refusal = |path: &std::path::Path| match Network::load(path) {
        Err(NetworkError::Io { message, .. }) => message,
        other => panic!("{other:?}"),
    };
    #[cfg(unix)]
    assert_eq!(
        refusal(std::path::Path::new("/dev/zero")),
        "it is a character device, not a regular file"
    );
    let dir = std::env::temp_dir().join(format!("xq-nnue-huge-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let huge = dir.join("huge.nnue");
    std::fs::File::create(&huge)
        .unwrap()
        .set_len(10_000_000_000)
        .unwrap();
    assert!(
        refusal(&huge).starts_with("it is larger than "),
        "{}",
        refusal(&huge)
    );
    assert_eq!(refusal(&dir), "it is a directory, not a regular file");
    std::fs::remove_dir_all(&dir).unwrap();
    assert!(matches!(
        Network::load(std::path::Path::new("/nonexistent/net.nnue")),
        Err(NetworkError::Io { .. })
    ));
}
