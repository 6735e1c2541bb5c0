//! The `--html` page: the static template `assets/trace.html` (markup, style and the
//! playback script in one file, compiled into the binary) with the trace's JSON written into
//! it. The page holds no search logic; it only plays the steps back. It loads nothing from
//! the network, so it works from a `file://` URL.

use super::model::Trace;

/// The page template; `__TRACE_JSON__` marks where the trace goes.
pub const TEMPLATE: &str = include_str!("../../../assets/trace.html");
/// The placeholder in the template.
pub const PLACEHOLDER: &str = "__TRACE_JSON__";

/// The page for `trace`. Inside the page's `<script>` element, `</script>` or `<!--` in a
/// string would end or confuse the element, so every `<` is written `\u003c` (the same
/// string in JSON).
pub fn page(trace: &Trace) -> String {
    let json = serde_json::to_string(trace)
        .unwrap_or_else(|_| "null".to_string())
        .replace('<', "\\u003c");
    TEMPLATE.replacen(PLACEHOLDER, &json, 1)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_template_has_one_placeholder_and_no_network() {
        assert_eq!(TEMPLATE.matches(PLACEHOLDER).count(), 1);
        for remote in ["http://", "https://", "//cdn", "@import"] {
            assert!(
                !TEMPLATE.contains(remote) || remote == "http://" && only_svg_namespace(),
                "the page must load nothing from the network ({remote})"
            );
        }
    }

    #[test]
    fn the_trace_cannot_end_the_script_element() {
        let mut trace = crate::tools::trace::trace_tree(
            &crate::tools::trace::tree::standing(),
            Default::default(),
        );
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
