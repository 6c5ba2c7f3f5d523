//! Lookup tables for the band logic, all computed at compile time.
//!
//! A band (three rows) or a stack (three columns) holds each digit exactly
//! three times: once per line and once per box, so the digit's placement
//! within it is one of the six permutations of `{0, 1, 2}` ("line `i` uses box
//! `σ(i)`"). The tables work on a 3×3 *occupancy matrix* packed into 9 bits,
//! bit `3·i + j` meaning "line `i` may still hold the digit in box `j`".

/// The six permutations of `{0, 1, 2}`.
pub(super) const PERMS: [[u32; 3]; 6] = [
    [0, 1, 2],
    [0, 2, 1],
    [1, 0, 2],
    [1, 2, 0],
    [2, 0, 1],
    [2, 1, 0],
];

/// Every cell of a band: 27 bits.
pub(super) const BAND: u32 = 0x7FF_FFFF;

/// The 9-bit occupancy matrix of permutation `p`.
const fn perm_matrix(p: usize) -> u32 {
    let mut m = 0;
    let mut i = 0;
    while i < 3 {
        m |= 1 << (3 * i + PERMS[p][i] as usize);
        i += 1;
    }
    m
}

/// The 27-bit band mask of the mini-rows named by a 9-bit matrix: bit
/// `3·r + k` becomes the three cells of row `r` in box `k`.
const fn minirows(m: u32) -> u32 {
    let mut mask = 0;
    let mut i = 0;
    while i < 9 {
        if m & (1 << i) != 0 {
            mask |= 7 << (9 * (i / 3) + 3 * (i % 3));
        }
        i += 1;
    }
    mask
}

/// The three copies of a 9-bit column set, one per row of a band.
pub(super) const fn columns(c: u32) -> u32 {
    c | c << 9 | c << 18
}

/// `VALID[m]`: bit `p` set when permutation `p` fits inside matrix `m`.
pub(super) const VALID: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut m = 0;
    while m < 512 {
        let mut p = 0;
        while p < 6 {
            let pm = perm_matrix(p);
            if m as u32 & pm == pm {
                t[m] |= 1 << p;
            }
            p += 1;
        }
        m += 1;
    }
    t
};

/// `PERM_COUNT[m]`: how many permutations fit inside `m`.
pub(super) const PERM_COUNT: [u8; 512] = {
    let mut t = [0u8; 512];
    let mut m = 0;
    while m < 512 {
        t[m] = VALID[m].count_ones() as u8;
        m += 1;
    }
    t
};

/// `ALLOWED[m]`: the union of the permutations inside `m` (0 when none fits):
/// the entries of the matrix that some complete placement still uses.
pub(super) const ALLOWED: [u16; 512] = {
    let mut t = [0u16; 512];
    let mut m = 0;
    while m < 512 {
        let mut p = 0;
        while p < 6 {
            if VALID[m] & (1 << p) != 0 {
                t[m] |= perm_matrix(p) as u16;
            }
            p += 1;
        }
        m += 1;
    }
    t
};

/// `SHRINK[x]`: for nine cells of a row (three mini-rows), which of the three
/// mini-rows are non-empty.
pub(super) const SHRINK: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut x = 0;
    while x < 512 {
        let mut k = 0;
        while k < 3 {
            if (x >> (3 * k)) & 7 != 0 {
                t[x] |= 1 << k;
            }
            k += 1;
        }
        x += 1;
    }
    t
};

/// `BAND_KEEP[m]`: the cells of a band a digit may keep given its row×box
/// occupancy matrix `m` (0 when no permutation fits: a contradiction).
pub(super) const BAND_KEEP: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut m = 0;
    while m < 512 {
        t[m] = minirows(ALLOWED[m] as u32);
        m += 1;
    }
    t
};

/// `PERM_ROWS[p]`: the band cells permutation `p` keeps (row `r` in box
/// `PERMS[p][r]`).
pub(super) const PERM_ROWS: [u32; 6] = {
    let mut t = [0u32; 6];
    let mut p = 0;
    while p < 6 {
        t[p] = minirows(perm_matrix(p));
        p += 1;
    }
    t
};

/// `COVER[m]`: every entry sharing a line or a box (row or column of the
/// matrix) with an entry of `m`.
pub(super) const COVER: [u16; 512] = {
    let mut t = [0u16; 512];
    let mut m = 0;
    while m < 512 {
        let mut i = 0;
        while i < 9 {
            if m & (1 << i) != 0 {
                t[m] |= (7 << (3 * (i / 3))) | (0o111 << (i % 3));
            }
            i += 1;
        }
        m += 1;
    }
    t
};

/// `LINES[m]`: the cells of a band in the rows and boxes of the entries of
/// row×box matrix `m`.
pub(super) const LINES: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut m = 0;
    while m < 512 {
        let mut i = 0;
        while i < 9 {
            if m & (1 << i) != 0 {
                t[m] |= (0x1FF << (9 * (i / 3))) | columns(7 << (3 * (i % 3)));
            }
            i += 1;
        }
        m += 1;
    }
    t
};

/// `COL_LOCK[c]`: for a digit's columns `c` in one band, the cells the other
/// bands keep: every column that is the digit's only one in its box is
/// removed.
pub(super) const COL_LOCK: [u32; 512] = {
    let mut t = [0u32; 512];
    let mut c = 0;
    while c < 512 {
        let mut keep = BAND;
        let mut k = 0;
        while k < 3 {
            let x = (c >> (3 * k)) & 7;
            if x != 0 && x & (x - 1) == 0 {
                keep &= !columns((x << (3 * k)) as u32);
            }
            k += 1;
        }
        t[c] = keep;
        c += 1;
    }
    t
};

/// `PEERS[i]`: the cells of a band sharing a row or a box with cell `i`
/// (`i` = 9·row + column within the band), the cell itself excluded.
pub(super) const PEERS: [u32; 27] = {
    let mut t = [0u32; 27];
    let mut i = 0;
    while i < 27 {
        let row = 0x1FF << (9 * (i / 9));
        let b = (i % 9) / 3;
        let boxm = columns(7 << (3 * b));
        t[i] = (row | boxm) & !(1 << i);
        i += 1;
    }
    t
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_agree_with_definitions() {
        assert_eq!(VALID[0x1FF], 0x3F);
        assert_eq!(ALLOWED[0x1FF], 0x1FF);
        assert_eq!(VALID[0], 0);
        assert_eq!(BAND_KEEP[0b100_010_001], PERM_ROWS[0]);
        // Rows 0 and 1 both confined to box 0: nothing fits.
        assert_eq!(ALLOWED[0b111_001_001], 0);
        // Row 0 confined to box 0 frees boxes 1, 2 for rows 1, 2 only.
        assert_eq!(ALLOWED[0b111_111_001], 0b110_110_001);
        // Eight more cells in its row, six more in its box.
        assert_eq!(PEERS[0].count_ones(), 8 + 6);
        assert_eq!(SHRINK[0b100_000_010], 0b101);
        assert_eq!(PERM_COUNT[0x1FF], 6);
        assert_eq!(PERM_COUNT[0b110_101_011], 2);
        // Box 0 only in column 1, box 1 in columns 3 and 4: column 1 claimed.
        assert_eq!(COL_LOCK[0b011_010], BAND & !columns(0b10));
        assert_eq!(LINES[1], 0x1FF | columns(7));
        assert_eq!(COVER[1], 0o111 | 7);
    }
}
