//! No import circle between files (issue #46).
//!
//! Reads every `.rs` file under `crates/*/src`, follows the `mod` declarations
//! from each crate root (`lib.rs`, `main.rs`) to learn which file holds which
//! module, then resolves every `crate::…`, `super::…` and `self::…` path found
//! in code, and every relative path into a child module (`child::…`, as a
//! parent writes it): a parent's paths into its children count like any other.
//! Comments (doc comments and their links included: docs are not imports),
//! strings and `$crate` are skipped. A path names
//! the deepest module it walks through; an item path (`crate::a::Item`) names
//! the module that holds the item. Each resolved path is an edge from the file
//! holding the path to the file holding the module, unless both are the same
//! file. A `mod child;` declaration is not an edge: only `use` and paths are.
//!
//! The test fails, listing each circle (its files and the lines that close it),
//! if the graph of some crate has one, except the circles `TEMPORARILY_ALLOWED`
//! lets through (each with its reason; the test fails too when one is no longer
//! needed, so that it is removed).

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

#[derive(Debug, Clone, PartialEq)]
enum Tok {
    Ident(String),
    PathSep,
    Punct(char),
}

/// Tokens with their line numbers; comments, strings, chars and lifetimes are dropped.
fn tokenize(src: &str) -> Vec<(Tok, usize)> {
    let c: Vec<char> = src.chars().collect();
    let mut out = Vec::new();
    let (mut i, mut line) = (0, 1);
    let n = c.len();
    let at = |i: usize| if i < n { c[i] } else { '\0' };
    while i < n {
        let ch = c[i];
        if ch == '\n' {
            line += 1;
            i += 1;
        } else if ch.is_whitespace() {
            i += 1;
        } else if ch == '/' && at(i + 1) == '/' {
            while i < n && c[i] != '\n' {
                i += 1;
            }
        } else if ch == '/' && at(i + 1) == '*' {
            let mut depth = 0;
            while i < n {
                if c[i] == '/' && at(i + 1) == '*' {
                    depth += 1;
                    i += 2;
                } else if c[i] == '*' && at(i + 1) == '/' {
                    depth -= 1;
                    i += 2;
                    if depth == 0 {
                        break;
                    }
                } else {
                    if c[i] == '\n' {
                        line += 1;
                    }
                    i += 1;
                }
            }
        } else if ch == '"' {
            i += 1;
            while i < n && c[i] != '"' {
                if c[i] == '\\' {
                    i += 1;
                }
                if at(i) == '\n' {
                    line += 1;
                }
                i += 1;
            }
            i += 1;
        } else if ch == '\'' {
            if at(i + 1) == '\\' {
                // escaped char literal
                i += 2;
                while i < n && c[i] != '\'' {
                    i += 1;
                }
                i += 1;
            } else if at(i + 2) == '\'' {
                i += 3; // plain char literal
            } else {
                // lifetime or label
                i += 1;
                while i < n && (c[i].is_alphanumeric() || c[i] == '_') {
                    i += 1;
                }
            }
        } else if ch.is_alphabetic() || ch == '_' {
            let start = i;
            while i < n && (c[i].is_alphanumeric() || c[i] == '_') {
                i += 1;
            }
            let word: String = c[start..i].iter().collect();
            // raw strings and byte strings: r"..", r#".."#, b"..", br#".."#
            let is_str_prefix = matches!(word.as_str(), "r" | "b" | "br" | "c" | "cr");
            if is_str_prefix && (at(i) == '"' || (at(i) == '#' && word != "b")) {
                let raw = word.contains('r');
                let mut hashes = 0;
                while at(i) == '#' {
                    hashes += 1;
                    i += 1;
                }
                if at(i) != '"' {
                    // `r#ident` raw identifier
                    let s = i;
                    while i < n && (c[i].is_alphanumeric() || c[i] == '_') {
                        i += 1;
                    }
                    out.push((Tok::Ident(c[s..i].iter().collect()), line));
                    continue;
                }
                i += 1;
                loop {
                    if i >= n {
                        break;
                    }
                    if c[i] == '\n' {
                        line += 1;
                    }
                    if !raw && c[i] == '\\' {
                        i += 2;
                        continue;
                    }
                    if c[i] == '"' && (0..hashes).all(|k| at(i + 1 + k) == '#') {
                        i += 1 + hashes;
                        break;
                    }
                    i += 1;
                }
            } else if word == "b" && at(i) == '\'' {
                i += 1;
                if at(i) == '\\' {
                    i += 1;
                }
                i += 1;
                while i < n && c[i] != '\'' {
                    i += 1;
                }
                i += 1;
            } else {
                out.push((Tok::Ident(word), line));
            }
        } else if ch.is_ascii_digit() {
            while i < n && (c[i].is_alphanumeric() || c[i] == '_') {
                i += 1;
            }
        } else if ch == ':' && at(i + 1) == ':' {
            out.push((Tok::PathSep, line));
            i += 2;
        } else {
            out.push((Tok::Punct(ch), line));
            i += 1;
        }
    }
    out
}

/// One file of a crate: its module path and tokens.
struct File {
    rel: String,
    module: Vec<String>,
    toks: Vec<(Tok, usize)>,
}

/// A module path: the names from the crate root down.
type ModPath = Vec<String>;

/// Module path -> index of the file that holds it (inline modules included).
type Modules = BTreeMap<ModPath, usize>;

fn ident(toks: &[(Tok, usize)], i: usize) -> Option<&str> {
    match toks.get(i) {
        Some((Tok::Ident(s), _)) => Some(s),
        _ => None,
    }
}

fn is(toks: &[(Tok, usize)], i: usize, t: &Tok) -> bool {
    toks.get(i).map(|x| &x.0) == Some(t)
}

/// For each token index, the module it sits in (file module plus inline `mod x { }`).
/// Also yields the module declarations: (module path of the child, whether it
/// is `mod name;` in its own file rather than an inline `mod name { }`).
fn scopes(file: &File) -> (Vec<ModPath>, Vec<(ModPath, bool)>) {
    let toks = &file.toks;
    let mut stack: Vec<(String, usize)> = Vec::new();
    let mut depth = 0usize;
    let mut scope_of = Vec::with_capacity(toks.len());
    let mut decls = Vec::new();
    let current = |stack: &[(String, usize)]| {
        let mut m = file.module.clone();
        m.extend(stack.iter().map(|(s, _)| s.clone()));
        m
    };
    for i in 0..toks.len() {
        scope_of.push(current(&stack));
        match &toks[i].0 {
            Tok::Ident(k) if k == "mod" && !is(toks, i.wrapping_sub(1), &Tok::PathSep) => {
                if let Some(name) = ident(toks, i + 1) {
                    let mut m = current(&stack);
                    m.push(name.to_string());
                    if is(toks, i + 2, &Tok::Punct(';')) {
                        decls.push((m, true));
                    } else if is(toks, i + 2, &Tok::Punct('{')) {
                        stack.push((name.to_string(), depth + 1));
                        decls.push((m, false));
                    }
                }
            }
            Tok::Punct('{') => depth += 1,
            Tok::Punct('}') => {
                if stack.last().map(|(_, d)| *d) == Some(depth) {
                    stack.pop();
                }
                depth = depth.saturating_sub(1);
            }
            _ => {}
        }
    }
    (scope_of, decls)
}

/// Parses a path (or use tree) starting after `toks[i]` = first segment, which
/// is followed by `::`. Pushes every full path (list of segments) to `out` and
/// returns the index of the last token of the path.
fn paths_from(
    toks: &[(Tok, usize)],
    mut i: usize,
    prefix: Vec<String>,
    out: &mut Vec<Vec<String>>,
) -> usize {
    let mut segs = prefix;
    loop {
        // at toks[i]: an identifier already in `segs`; look for `::`
        if !is(toks, i + 1, &Tok::PathSep) {
            out.push(segs);
            return i;
        }
        i += 2;
        match toks.get(i).map(|t| &t.0) {
            Some(Tok::Ident(s)) => segs.push(s.clone()),
            Some(Tok::Punct('{')) => {
                // use tree: comma separated subtrees
                let mut j = i + 1;
                while j < toks.len() && !is(toks, j, &Tok::Punct('}')) {
                    if let Some(s) = ident(toks, j) {
                        let mut p = segs.clone();
                        if s != "self" {
                            p.push(s.to_string());
                        }
                        paths_from(toks, j, p, out);
                    }
                    // skip to the next comma at this nesting level
                    let mut depth = 0;
                    while j < toks.len() {
                        match toks[j].0 {
                            Tok::Punct('{') => depth += 1,
                            Tok::Punct('}') if depth == 0 => break,
                            Tok::Punct('}') => depth -= 1,
                            Tok::Punct(',') if depth == 0 => {
                                j += 1;
                                break;
                            }
                            _ => {}
                        }
                        j += 1;
                    }
                }
                return j;
            }
            _ => {
                // `*`, turbofish `<`, …
                out.push(segs);
                return i;
            }
        }
    }
}

/// Resolves a path written in module `scope` to the module it names (deepest
/// known module it walks through), or `None` if it leaves the crate.
fn resolve(scope: &[String], path: &[String], modules: &Modules) -> Option<Vec<String>> {
    let mut cur: Vec<String>;
    let mut rest = path;
    match path.first().map(String::as_str) {
        Some("crate") => {
            cur = Vec::new();
            rest = &path[1..];
        }
        Some("self") | Some("super") => {
            cur = scope.to_vec();
            while let Some(first) = rest.first() {
                match first.as_str() {
                    "self" => {}
                    "super" => {
                        cur.pop()?;
                    }
                    _ => break,
                }
                rest = &rest[1..];
            }
        }
        _ => cur = scope.to_vec(),
    }
    for seg in rest {
        let mut next = cur.clone();
        next.push(seg.clone());
        if modules.contains_key(&next) {
            cur = next;
        } else {
            break;
        }
    }
    Some(cur)
}

/// Whether a path beginning with `first` (followed by `::`) in module `scope`
/// is one the graph follows: `crate::`, `super::`, `self::`, or a relative
/// path into a child module of `scope` (`child::Item`, as a parent writes it).
fn starts_path(scope: &[String], first: &str, modules: &Modules) -> bool {
    if matches!(first, "crate" | "super" | "self") {
        return true;
    }
    let mut child = scope.to_vec();
    child.push(first.to_string());
    modules.contains_key(&child)
}

/// An edge between files, with the first line of the path that makes it.
type Edges = BTreeMap<(usize, usize), usize>;

fn edges(files: &[File], modules: &Modules) -> Edges {
    let mut edges = Edges::new();
    for (fi, file) in files.iter().enumerate() {
        let toks = &file.toks;
        let (scope_of, _) = scopes(file);
        let mut i = 0;
        while i < toks.len() {
            let start = i;
            i += 1;
            let Some(first) = ident(toks, start) else { continue };
            if !is(toks, start + 1, &Tok::PathSep) {
                continue;
            }
            let prev = start.checked_sub(1).map(|p| &toks[p].0);
            if matches!(prev, Some(Tok::PathSep) | Some(Tok::Punct('$')) | Some(Tok::Punct('.'))) {
                continue;
            }
            let scope = &scope_of[start];
            if !starts_path(scope, first, modules) {
                continue;
            }
            let mut paths = Vec::new();
            i = paths_from(toks, start, vec![first.to_string()], &mut paths) + 1;
            for p in paths {
                let Some(target) = resolve(scope, &p, modules) else { continue };
                let tf = modules[&target];
                if tf != fi {
                    edges.entry((fi, tf)).or_insert(toks[start].1);
                }
            }
        }
    }
    edges
}

/// Strongly connected components with more than one file (Tarjan).
fn circles(n: usize, edges: &Edges) -> Vec<Vec<usize>> {
    struct St<'a> {
        adj: Vec<Vec<usize>>,
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        on: Vec<bool>,
        stack: Vec<usize>,
        next: usize,
        out: &'a mut Vec<Vec<usize>>,
    }
    fn visit(s: &mut St, v: usize) {
        s.index[v] = Some(s.next);
        s.low[v] = s.next;
        s.next += 1;
        s.stack.push(v);
        s.on[v] = true;
        for w in s.adj[v].clone() {
            match s.index[w] {
                None => {
                    visit(s, w);
                    s.low[v] = s.low[v].min(s.low[w]);
                }
                Some(iw) if s.on[w] => s.low[v] = s.low[v].min(iw),
                _ => {}
            }
        }
        if Some(s.low[v]) == s.index[v] {
            let mut comp = Vec::new();
            loop {
                let w = s.stack.pop().unwrap();
                s.on[w] = false;
                comp.push(w);
                if w == v {
                    break;
                }
            }
            if comp.len() > 1 {
                comp.sort();
                s.out.push(comp);
            }
        }
    }
    let mut adj = vec![Vec::new(); n];
    for &(a, b) in edges.keys() {
        adj[a].push(b);
    }
    let mut out = Vec::new();
    let mut s = St {
        adj,
        index: vec![None; n],
        low: vec![0; n],
        on: vec![false; n],
        stack: vec![],
        next: 0,
        out: &mut out,
    };
    for v in 0..n {
        if s.index[v].is_none() {
            visit(&mut s, v);
        }
    }
    out
}

/// Circles tolerated for now, each with its reason: a circle is let through only when every one of
/// its files is in one allowance (a path ending in `/` stands for every file under that folder).
/// An allowance that no circle needs any more fails the test, so that it is removed. Temporary:
/// each goes once its files are broken up.
const TEMPORARILY_ALLOWED: &[(&[&str], &str)] = &[];

/// Whether `file` (relative to the workspace) is one of `allowance`'s files.
fn allows(allowance: &[&str], file: &str) -> bool {
    allowance.iter().any(|a| if a.ends_with('/') { file.starts_with(a) } else { file == *a })
}

/// The allowance (index in `allowed`) that tolerates a circle of `files`, if any.
fn tolerated(allowed: &[(&[&str], &str)], files: &[&str]) -> Option<usize> {
    allowed.iter().position(|(allowance, _)| files.iter().all(|f| allows(allowance, f)))
}

/// Loads a crate from its root file, following `mod` declarations.
fn load_crate(workspace: &Path, root: &Path, seen: &mut BTreeSet<PathBuf>) -> (Vec<File>, Modules) {
    let mut files: Vec<File> = Vec::new();
    let mut modules = Modules::new();
    let mut todo = vec![(root.to_path_buf(), Vec::<String>::new())];
    while let Some((path, module)) = todo.pop() {
        let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        seen.insert(path.clone());
        let rel = path.strip_prefix(workspace).unwrap_or(&path).display().to_string();
        let file = File { rel, module: module.clone(), toks: tokenize(&text) };
        let fi = files.len();
        modules.insert(module.clone(), fi);
        // directory that holds this file's child modules
        let dir = if path == root || path.ends_with("mod.rs") {
            path.parent().unwrap().to_path_buf()
        } else {
            path.with_extension("")
        };
        let (_, decls) = scopes(&file);
        for (child, own_file) in decls {
            if !own_file {
                modules.insert(child, fi);
                continue;
            }
            // `mod x;` inside inline modules looks in sub directories
            let mut d = dir.clone();
            for s in &child[module.len()..child.len() - 1] {
                d.push(s);
            }
            let leaf = child.last().unwrap();
            let flat = d.join(format!("{leaf}.rs"));
            let found = if flat.exists() { flat } else { d.join(leaf).join("mod.rs") };
            todo.push((found, child));
        }
        files.push(file);
    }
    (files, modules)
}

#[test]
fn no_import_circle_between_files() {
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().unwrap();
    let mut report = Vec::new();
    let mut all = BTreeSet::new();
    let mut seen = BTreeSet::new();
    let mut used = BTreeSet::new();
    let mut crates: Vec<PathBuf> =
        fs::read_dir(workspace.join("crates")).unwrap().map(|e| e.unwrap().path()).collect();
    crates.sort();
    for krate in crates {
        let src = krate.join("src");
        if !src.is_dir() {
            continue;
        }
        let mut stack = vec![src.clone()];
        while let Some(d) = stack.pop() {
            for e in fs::read_dir(&d).unwrap() {
                let p = e.unwrap().path();
                if p.is_dir() {
                    stack.push(p);
                } else if p.extension().is_some_and(|x| x == "rs") {
                    all.insert(p.canonicalize().unwrap());
                }
            }
        }
        for root in ["lib.rs", "main.rs"] {
            let root = src.join(root);
            if !root.exists() {
                continue;
            }
            let root = root.canonicalize().unwrap();
            let (files, modules) = load_crate(&workspace, &root, &mut seen);
            let edges = edges(&files, &modules);
            for comp in circles(files.len(), &edges) {
                let names: Vec<&str> = comp.iter().map(|&f| files[f].rel.as_str()).collect();
                if let Some(a) = tolerated(TEMPORARILY_ALLOWED, &names) {
                    used.insert(a);
                    continue;
                }
                let mut lines = vec![format!("circle between {} files:", comp.len())];
                for &f in &comp {
                    lines.push(format!("  {}", files[f].rel));
                }
                for (&(a, b), &line) in &edges {
                    if comp.contains(&a) && comp.contains(&b) {
                        lines.push(format!("    {}:{line} -> {}", files[a].rel, files[b].rel));
                    }
                }
                report.push(lines.join("\n"));
            }
        }
    }
    let missed: Vec<_> = all.difference(&seen).collect();
    assert!(missed.is_empty(), "files not reached through `mod` declarations: {missed:?}");
    let stale: Vec<_> = (0..TEMPORARILY_ALLOWED.len())
        .filter(|a| !used.contains(a))
        .map(|a| TEMPORARILY_ALLOWED[a].0)
        .collect();
    assert!(stale.is_empty(), "allowances no circle needs any more (remove them): {stale:?}");
    assert!(
        report.is_empty(),
        "{} import circle(s) between files:\n{}",
        report.len(),
        report.join("\n")
    );
}

#[test]
fn scanner_sees_paths_in_code_only() {
    let src = r###"
        // use crate::commented::Out;
        /* crate::block::Comment /* nested */ */
        use crate::{a::{self, b::Item}, c};
        use super::d::*;
        fn f() -> &'static str { let _ = 'x'; let _ = '\''; r#"crate::raw::Str"# }
        fn g() { self::e::run(); h::<u8>(); $crate::m::n(); x.k::<u8>(); }
    "###;
    let toks = tokenize(src);
    let mut paths = Vec::new();
    for i in 0..toks.len() {
        if let Some(s) = ident(&toks, i) {
            let prev = i.checked_sub(1).map(|p| &toks[p].0);
            if matches!(s, "crate" | "super" | "self")
                && is(&toks, i + 1, &Tok::PathSep)
                && !matches!(prev, Some(Tok::PathSep) | Some(Tok::Punct('$')))
            {
                paths_from(&toks, i, vec![s.to_string()], &mut paths);
            }
        }
    }
    let paths: Vec<String> = paths.iter().map(|p| p.join("::")).collect();
    assert_eq!(paths, ["crate::a", "crate::a::b::Item", "crate::c", "super::d", "self::e::run"]);
}

#[test]
fn parent_paths_into_children_count() {
    let modules: Modules =
        [(vec![], 0), (vec!["a".to_string()], 1), (vec!["a".to_string(), "b".to_string()], 2)]
            .into_iter()
            .collect();
    let a = ["a".to_string()];
    // In `a`: `b::X` is the child `a::b`; `std::…` and `X::new` name no module of the crate.
    assert!(starts_path(&a, "b", &modules));
    assert!(!starts_path(&a, "std", &modules));
    assert!(!starts_path(&a, "X", &modules));
    assert!(starts_path(&a, "super", &modules));
    let b_item = ["b".to_string(), "X".to_string()];
    assert_eq!(resolve(&a, &b_item, &modules), Some(vec!["a".to_string(), "b".to_string()]));
    // A parent using its child and the child using the parent make a circle.
    let edges: Edges = [((1, 2), 1), ((2, 1), 1)].into_iter().collect();
    assert_eq!(circles(3, &edges), vec![vec![1, 2]]);
}

#[test]
fn allowances_are_narrow() {
    let allowed: &[(&[&str], &str)] = &[(&["x/q/", "x/r.rs"], "test")];
    assert_eq!(tolerated(allowed, &["x/q/mod.rs", "x/q/a.rs", "x/r.rs"]), Some(0));
    // One file outside the allowance: the circle is reported.
    assert_eq!(tolerated(allowed, &["x/q/mod.rs", "x/s.rs"]), None);
    assert_eq!(tolerated(allowed, &["x/q.rs", "x/r.rs"]), None);
    assert_eq!(tolerated(allowed, &["x/r.rs.bak", "x/q/a.rs"]), None);
}
