//! The JSON a page carries for its code in a data block (`<script type="application/json">`):
//! the catalogues (`catalogue_block`) and a question page's question.

use serde::Serialize;

/// `value` as JSON that cannot end a `<script>` element or open a comment in it.
pub fn script_json(value: &impl Serialize) -> String {
    // `<` occurs only inside strings in JSON, where `\u003c` means the same.
    serde_json::to_string(value)
        .unwrap_or_default()
        .replace('<', "\\u003c")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_data_block_cannot_end_its_element() {
        let text = "</script><script>alert(1)</script><!--";
        let json = script_json(&text);
        assert!(!json.contains('<'), "{json}");
        assert_eq!(serde_json::from_str::<String>(&json).unwrap(), text);
    }
}
