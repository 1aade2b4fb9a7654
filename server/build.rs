//! Rebuilds the binary when the site changes: rust-embed alone misses added or removed files.

fn main() {
    println!("cargo:rerun-if-changed=../target/site");
}
