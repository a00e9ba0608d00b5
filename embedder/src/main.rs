//! `jsprof`: the shell's command line.

use std::process::ExitCode;

const USAGE: &str = "\
usage: jsprof                 evaluate the bundled demo script and print its result
       jsprof eval <FILE|->   evaluate a classic script file (- reads standard input)
       jsprof --help          show this help";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (source, filename) = match args.as_slice() {
        [] => (
            jsprof_shell::DEMO_SCRIPT.to_owned(),
            jsprof_shell::DEMO_FILENAME.to_owned(),
        ),
        ["-h" | "--help"] => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        ["eval", path] => match read_source(path) {
            Ok(source) => (source, path.to_string()),
            Err(message) => return fail(&message),
        },
        _ => {
            return fail(&format!(
                "unexpected arguments: {}\n{USAGE}",
                args.join(" ")
            ))
        }
    };
    match jsprof_shell::evaluate(&source, &filename) {
        Ok(result) => {
            println!("{result}");
            ExitCode::SUCCESS
        }
        Err(error) => fail(&error.to_string()),
    }
}

fn read_source(path: &str) -> Result<String, String> {
    let result = if path == "-" {
        std::io::read_to_string(std::io::stdin())
    } else {
        std::fs::read_to_string(path)
    };
    result.map_err(|e| format!("cannot read {path}: {e}"))
}

fn fail(message: &str) -> ExitCode {
    eprintln!("jsprof: {message}");
    ExitCode::FAILURE
}
