//! The circle finder of the layout rule: the import circles of a module graph, of any length
//! (Tarjan's strongly connected components), each named by one circle through it.

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use super::{Module, code_only, is_ancestor, module_of, name, references, resolve};

/// The import circles of `graph`, of any length: each strongly connected group of modules
/// (Tarjan's algorithm), named by one circle through it with the place of each import. A
/// module and its own descendant may use each other, so those edges are left out.
pub(super) fn circles(graph: &BTreeMap<Module, BTreeMap<Module, String>>) -> Vec<String> {
    let edges = |a: &Module| -> Vec<Module> {
        graph
            .get(a)
            .map(|targets| {
                targets
                    .keys()
                    .filter(|b| !is_ancestor(a, b) && !is_ancestor(b, a))
                    .cloned()
                    .collect()
            })
            .unwrap_or_default()
    };
    // Tarjan's strongly connected components, iteratively over a module list.
    let modules: Vec<Module> = graph.keys().cloned().collect();
    let index_of: BTreeMap<&Module, usize> =
        modules.iter().enumerate().map(|(i, m)| (m, i)).collect();
    let successors: Vec<Vec<usize>> = modules
        .iter()
        .map(|m| {
            edges(m)
                .iter()
                .filter_map(|t| index_of.get(t).copied())
                .collect()
        })
        .collect();
    let n = modules.len();
    let mut index = vec![usize::MAX; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut next_index = 0;
    let mut groups: Vec<Vec<usize>> = Vec::new();
    for start in 0..n {
        if index[start] != usize::MAX {
            continue;
        }
        // (node, next successor to look at)
        let mut work = vec![(start, 0usize)];
        index[start] = next_index;
        low[start] = next_index;
        next_index += 1;
        stack.push(start);
        on_stack[start] = true;
        while let Some(&mut (v, ref mut child)) = work.last_mut() {
            if let Some(&w) = successors[v].get(*child) {
                *child += 1;
                if index[w] == usize::MAX {
                    index[w] = next_index;
                    low[w] = next_index;
                    next_index += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    work.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            work.pop();
            if let Some(&(parent, _)) = work.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == index[v] {
                let mut group = Vec::new();
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    group.push(w);
                    if w == v {
                        break;
                    }
                }
                if group.len() > 1 {
                    groups.push(group);
                }
            }
        }
    }
    // Name each group by a circle through it: from its first module, follow edges inside
    // the group (breadth first) back to the start.
    groups
        .into_iter()
        .map(|group| {
            let start = *group.iter().min().unwrap();
            let inside = |i: &usize| group.contains(i);
            let mut came_from: BTreeMap<usize, usize> = BTreeMap::new();
            let mut queue = std::collections::VecDeque::from([start]);
            let mut last = start;
            'search: while let Some(v) = queue.pop_front() {
                for &w in successors[v].iter().filter(|w| inside(w)) {
                    if w == start {
                        last = v;
                        break 'search;
                    }
                    if let std::collections::btree_map::Entry::Vacant(e) = came_from.entry(w) {
                        e.insert(v);
                        queue.push_back(w);
                    }
                }
            }
            let mut path = vec![last];
            while let Some(&before) = came_from.get(path.last().unwrap()) {
                path.push(before);
            }
            path.reverse();
            if path[0] != start {
                path.insert(0, start);
            }
            path.push(start);
            let steps: Vec<String> = path
                .windows(2)
                .map(|pair| {
                    let (a, b) = (&modules[pair[0]], &modules[pair[1]]);
                    format!("{} -> {} ({})", name(a), name(b), graph[a][b])
                })
                .collect();
            format!(
                "a circle of {} modules: {}",
                path.len() - 1,
                steps.join(", ")
            )
        })
        .collect()
}

/// The circle finder itself, on a fixture: three modules that use each other in a ring are
/// found (with each import's place), a parent and child that use each other are not, and a
/// chain without a way back is not.
#[test]
fn the_circle_finder_sees_a_circle_of_three() {
    let fixture = [
        ("search/a.rs", "use crate::search::b::B;\nfn f() {}\n"),
        ("search/b.rs", "fn g() { crate::search::c::h(); }\n"),
        ("search/c.rs", "use super::a;\nuse crate::eval::E;\n"),
        (
            "search/mod.rs",
            "use self::a::A;\nuse crate::search::d::D;\n",
        ),
        ("search/d.rs", "use super::Limits;\nuse crate::eval::E;\n"),
        ("eval/mod.rs", "use crate::rng::R;\n"),
        ("rng.rs", ""),
    ];
    let modules: BTreeSet<Module> = fixture
        .iter()
        .map(|(file, _)| module_of(Path::new(file)))
        .collect();
    let mut graph: BTreeMap<Module, BTreeMap<Module, String>> = BTreeMap::new();
    for (file, text) in fixture {
        let module = module_of(Path::new(file));
        let edges = graph.entry(module.clone()).or_default();
        for reference in references(&code_only(text), &module) {
            let target = resolve(&reference.path, &modules);
            if target != module {
                edges
                    .entry(target)
                    .or_insert_with(|| format!("{file}:{}", reference.line));
            }
        }
    }
    let found = circles(&graph);
    assert_eq!(
        found,
        [
            "a circle of 3 modules: search::a -> search::b (search/a.rs:1), \
          search::b -> search::c (search/b.rs:1), search::c -> search::a (search/c.rs:1)"
        ]
    );
    // Breaking one link breaks the circle.
    graph
        .get_mut(&module_of(Path::new("search/b.rs")))
        .unwrap()
        .clear();
    assert!(circles(&graph).is_empty());
}
