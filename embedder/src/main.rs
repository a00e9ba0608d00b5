//! `jsprof`: the shell's command line.

use std::process::ExitCode;
use std::time::Duration;

const USAGE: &str = "\
usage: jsprof [OPTIONS] [URL|PATH]  load a page (default: the bundled demo page) and run it to idle
       jsprof eval <FILE|->          evaluate a classic script file (- reads standard input)
       jsprof --help                 show this help

options:
  --timeout SECONDS   stop running the page after this long
  --map HOST=IP       resolve HOST (a name, or a pattern like *.example.test) to IP;
                      repeatable
  --host-rules RULES  Chromium-style rules: \"MAP web-platform.test 127.0.0.1, EXCLUDE x\"
  --ca-file FILE      trust exactly the PEM CA certificates in FILE (https loads)
  --insecure          accept any server certificate (self-signed loopback servers)
  --quiet             no shell messages (console output still prints)";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let [eval, path] = args.as_slice() {
        if eval == "eval" {
            return eval_file(path);
        }
    }
    let mut options = jsprof_shell::RunOptions::default();
    let mut page: Option<String> = None;
    let mut iter = args.iter();
    while let Some(arg) = iter.next() {
        match arg.as_str() {
            "-h" | "--help" => {
                println!("{USAGE}");
                return ExitCode::SUCCESS;
            }
            "--timeout" => {
                let Some(value) = iter.next() else {
                    return fail("--timeout needs a number of seconds");
                };
                match value.parse::<f64>() {
                    Ok(s) if s.is_finite() && s >= 0.0 => {
                        options.timeout = Some(Duration::from_secs_f64(s))
                    }
                    _ => return fail(&format!("--timeout: not a number of seconds: {value}")),
                }
            }
            "--map" | "--host-rules" | "--ca-file" => {
                let Some(value) = iter.next() else {
                    return fail(&format!("{arg} needs a value"));
                };
                let rules = match arg.as_str() {
                    "--map" => match value.split_once('=') {
                        Some((host, ip)) => {
                            jsprof_net::HostRules::new().map(host.trim(), ip.trim())
                        }
                        None => return fail(&format!("--map expects HOST=IP, got {value}")),
                    },
                    "--host-rules" => jsprof_net::HostRules::parse(value),
                    _ => {
                        options.net.ca_file = Some(value.into());
                        continue;
                    }
                };
                match rules {
                    Ok(rules) => options.net.host_rules.extend(&rules),
                    Err(error) => return fail(&format!("{arg} {value}: {error}")),
                }
            }
            "--insecure" => options.net.accept_invalid_certs = true,
            "--quiet" => options.quiet = true,
            other if other.starts_with("--") => {
                return fail(&format!("unknown option {other}\n{USAGE}"))
            }
            other => {
                if page.is_some() {
                    return fail(&format!("more than one page given\n{USAGE}"));
                }
                page = Some(other.to_owned());
            }
        }
    }
    let url = match page {
        None => url::Url::parse(jsprof_shell::DEMO_PAGE_URL).expect("the demo URL parses"),
        Some(page) => match jsprof_shell::url_from_argument(&page) {
            Ok(url) => url,
            Err(message) => return fail(&message),
        },
    };
    match jsprof_shell::run_page(&url, &options) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => fail(&message),
    }
}

fn eval_file(path: &str) -> ExitCode {
    let source = match read_source(path) {
        Ok(source) => source,
        Err(message) => return fail(&message),
    };
    match jsprof_shell::evaluate(&source, path) {
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
