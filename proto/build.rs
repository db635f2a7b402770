//! Compiles `deckmate/v1/**/*.proto` with protox (no system `protoc` needed) into tonic/prost
//! code, an encoded `FileDescriptorSet` for server reflection, and the one-pass encoders of
//! `src/wire.rs` (`build/wire_gen.rs`).

use std::path::PathBuf;

use prost::Message;

#[path = "build/wire_gen.rs"]
mod wire_gen;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let root = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR")?);
    let mut files = Vec::new();
    collect_protos(&root.join("deckmate"), &mut files)?;
    files.sort();
    for file in &files {
        println!("cargo:rerun-if-changed={}", file.display());
    }
    let descriptors = protox::compile(&files, [&root])?;
    let out_dir = PathBuf::from(std::env::var("OUT_DIR")?);
    std::fs::write(
        out_dir.join("deckmate_descriptor.bin"),
        descriptors.encode_to_vec(),
    )?;
    println!("cargo:rerun-if-changed=build/wire_gen.rs");
    std::fs::write(
        out_dir.join("deckmate_wire.rs"),
        wire_gen::generate(&descriptors),
    )?;
    tonic_prost_build::configure()
        .build_client(true)
        .build_server(true)
        // One-pass encoding (src/wire.rs); decoding is prost's.
        .codec_path("crate::wire::WireCodec")
        .compile_fds(descriptors)?;
    Ok(())
}

fn collect_protos(dir: &std::path::Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.is_dir() {
            collect_protos(&path, out)?;
        } else if path.extension().is_some_and(|ext| ext == "proto") {
            out.push(path);
        }
    }
    Ok(())
}
