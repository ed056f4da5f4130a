//! CRC-32 (IEEE, as Python's `zlib.crc32`), for digests of large tables shared with the Python
//! fixtures: the fixture stores the digest of the whole table, the test recomputes it.

pub fn crc32(data: &[u8]) -> u32 {
    crc32_update(0, data)
}

/// Continue a CRC-32 (`zlib.crc32(data, crc)`).
pub fn crc32_update(crc: u32, data: &[u8]) -> u32 {
    let mut c = !crc;
    for &byte in data {
        c ^= byte as u32;
        for _ in 0..8 {
            c = if c & 1 != 0 { (c >> 1) ^ 0xEDB8_8320 } else { c >> 1 };
        }
    }
    !c
}

#[cfg(test)]
mod tests {
    #[test]
    fn known_value() {
        // zlib.crc32(b"123456789") == 0xCBF43926
        assert_eq!(super::crc32(b"123456789"), 0xCBF4_3926);
        assert_eq!(super::crc32_update(super::crc32(b"1234"), b"56789"), 0xCBF4_3926);
    }
}
