//! Network files of any bytes. Invariants: the reader never panics; a file that reads writes
//! back byte for byte, and its evaluations stay within the documented bound.

#![no_main]

use libfuzzer_sys::fuzz_target;
use xiangqi::Position;
use xiangqi_engine::nnue::{features::INPUTS, Network, MAX_VALUE};

/// Units of the networks built from the input: the smallest allowed, so inputs stay small.
const HIDDEN: usize = 16;

fuzz_target!(|data: &[u8]| {
    // A valid header and checksum are hard to guess: unless the first byte is 0, the input is
    // taken as the weights of a 16-unit network (repeated or cut to the length) and given a
    // header that matches, so the range checks and the arithmetic get exercised.
    let input = if data.first() == Some(&0) || data.is_empty() {
        data.to_vec()
    } else {
        let length = 2 * (INPUTS * HIDDEN + 3 * HIDDEN) + 4;
        let payload: Vec<u8> = data.iter().copied().cycle().take(length).collect();
        let mut file = b"XQNNUE\r\n".to_vec();
        for field in [1u16, INPUTS as u16, HIDDEN as u16, 1, 255, 64, 400, 0] {
            file.extend_from_slice(&field.to_le_bytes());
        }
        let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
        for &b in &payload {
            hash = (hash ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
        }
        file.extend_from_slice(&hash.to_le_bytes());
        file.extend_from_slice(&payload);
        file
    };
    if let Ok(network) = Network::from_bytes(&input) {
        assert_eq!(network.to_bytes(), input);
        let value = network.evaluate(&Position::startpos());
        assert!(value.abs() <= MAX_VALUE);
    }
});
