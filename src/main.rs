//! The `drfscan` command: argument parsing and dispatch only; all work is
//! done by the library.

mod cli;

fn main() {
    std::process::exit(cli::main());
}
