//! The case suite (cases/, fixtures/, manifests/) is embedded in the binary; rebuild when any
//! of it changes.
fn main() {
    for dir in ["../cases", "../fixtures", "../manifests"] {
        println!("cargo:rerun-if-changed={dir}");
    }
}
