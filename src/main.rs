fn main() {
    std::process::exit(drfscan_main());
}

fn drfscan_main() -> i32 {
    eprintln!("drfscan: not yet");
    2
}
