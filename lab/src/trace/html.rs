//! The page: the static template `assets/trace.html` (markup, style, the playback script and
//! the lab's explanations in one file, compiled into the binary). `--html` writes it with the
//! trace's JSON in it and the controls that need the lab's server hidden; `brudno lab` serves
//! it with no trace and the lab switched on, and the page fetches its traces from the API.
//! The page holds no search logic; it only plays the steps back. It loads nothing from the
//! network, so a written page works from a `file://` URL.

use super::model::Trace;

/// The page template; `__TRACE_JSON__` marks where the trace goes, `__LAB_JSON__` where the
/// lab's settings go.
pub const TEMPLATE: &str = include_str!("../../../assets/trace.html");
/// The placeholder of the trace in the template.
pub const PLACEHOLDER: &str = "__TRACE_JSON__";
/// The placeholder of the lab's settings in the template.
pub const LAB_PLACEHOLDER: &str = "__LAB_JSON__";

/// The page for `trace`. Inside the page's `<script>` element, `</script>` or `<!--` in a
/// string would end or confuse the element, so every `<` is written `\u003c` (the same
/// string in JSON).
pub fn page(trace: &Trace) -> String {
    let json = serde_json::to_string(trace)
        .unwrap_or_else(|_| "null".to_string())
        .replace('<', "\\u003c");
    TEMPLATE
        .replacen(PLACEHOLDER, &json, 1)
        .replacen(LAB_PLACEHOLDER, "null", 1)
}

/// The page `brudno lab` serves: no trace, the lab's controls on (the page asks the API).
pub fn lab_page() -> String {
    let settings = serde_json::json!({
        "api": "/api",
        "chess_max_depth": super::chess::MAX_DEPTH,
        "tree_max_nodes": super::tree::MAX_NODES,
    });
    TEMPLATE
        .replacen(PLACEHOLDER, "null", 1)
        .replacen(LAB_PLACEHOLDER, &settings.to_string(), 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_template_has_one_placeholder_and_no_network() {
        assert_eq!(TEMPLATE.matches(PLACEHOLDER).count(), 1);
        assert_eq!(TEMPLATE.matches(LAB_PLACEHOLDER).count(), 1);
        assert!(!lab_page().contains(PLACEHOLDER));
        assert!(!lab_page().contains(LAB_PLACEHOLDER));
        for remote in ["http://", "https://", "//cdn", "@import"] {
            assert!(
                !TEMPLATE.contains(remote) || remote == "http://" && only_svg_namespace(),
                "the page must load nothing from the network ({remote})"
            );
        }
    }

    #[test]
    fn the_trace_cannot_end_the_script_element() {
        let mut trace =
            crate::trace::trace_tree(&crate::trace::tree::standing(), Default::default());
        trace.title = "</script><!-- <script>".to_string();
        let page = page(&trace);
        assert!(!page.contains(PLACEHOLDER));
        assert_eq!(
            page.matches("</script>").count(),
            TEMPLATE.matches("</script>").count()
        );
        assert!(page.contains("\\u003c/script>\\u003c!--"));
    }

    /// `http://` may appear only as the SVG and XHTML namespace names, which are not loaded.
    fn only_svg_namespace() -> bool {
        TEMPLATE
            .match_indices("http://")
            .all(|(i, _)| TEMPLATE[i..].starts_with("http://www.w3.org/"))
    }
}
