//! A language's page catalogue resolved from its Fluent source: Fluent itself formats every
//! message without variables; the others keep their text, variables and selections.

use super::{Key, Part, Select, Variant, Words};
use crate::{Lang, catalogues};
use fluent_syntax::ast;

/// The page catalogue of `lang`, resolved. A message using more of Fluent than a count's
/// select and variables is left out (the catalogue tests keep that from shipping).
pub fn compile(lang: Lang) -> Words {
    compile_source(lang, catalogues::page_source(lang))
}

/// The page catalogue of `lang`, resolved once for the daemon's life (pages carry it, and a page
/// switching language fetches it).
pub fn resolved(lang: Lang) -> &'static Words {
    // Each made when first asked for: a daemon whose pages are in one language holds one.
    static RESOLVED: [std::sync::OnceLock<Words>; Lang::ALL.len()] =
        [const { std::sync::OnceLock::new() }; Lang::ALL.len()];
    let index = Lang::ALL.iter().position(|of| *of == lang).unwrap_or(0);
    RESOLVED[index].get_or_init(|| compile(lang))
}

/// A Fluent `source` in `lang`, resolved.
pub(super) fn compile_source(lang: Lang, source: &str) -> Words {
    let bundle = catalogues::bundle(lang, &[source]);
    let resource = fluent_syntax::parser::parse(source).unwrap_or_else(|(resource, _)| resource);
    let mut words = Words::default();
    for entry in &resource.body {
        let ast::Entry::Message(message) = entry else {
            continue;
        };
        let Some(pattern) = &message.value else {
            continue;
        };
        let key = message.id.name.to_string();
        if has_placeables(pattern) {
            if let Some(parts) = parts_of(pattern) {
                words.patterns.insert(key, parts);
            }
        } else if let Some(text) = crate::lookup::format_in(&bundle, &key, None) {
            words.plain.insert(key, text);
        }
    }
    words
}

fn has_placeables(pattern: &ast::Pattern<&str>) -> bool {
    pattern
        .elements
        .iter()
        .any(|element| matches!(element, ast::PatternElement::Placeable { .. }))
}

fn parts_of(pattern: &ast::Pattern<&str>) -> Option<Vec<Part>> {
    let mut parts: Vec<Part> = Vec::new();
    for element in &pattern.elements {
        let part = match element {
            ast::PatternElement::TextElement { value } => Part::Text((*value).to_string()),
            ast::PatternElement::Placeable { expression } => expression_part(expression)?,
        };
        // Adjacent texts (a line break, a quoted literal) read as one.
        match (parts.last_mut(), part) {
            (Some(Part::Text(before)), Part::Text(text)) => before.push_str(&text),
            (_, part) => parts.push(part),
        }
    }
    Some(parts)
}

fn expression_part(expression: &ast::Expression<&str>) -> Option<Part> {
    match expression {
        ast::Expression::Inline(inline) => inline_part(inline),
        ast::Expression::Select { selector, variants } => {
            let ast::InlineExpression::VariableReference { id } = selector else {
                return None;
            };
            let mut compiled = Vec::new();
            let mut default = 0;
            for (index, variant) in variants.iter().enumerate() {
                let key = match &variant.key {
                    ast::VariantKey::Identifier { name } => Key::Name((*name).to_string()),
                    ast::VariantKey::NumberLiteral { value } => Key::Number(value.parse().ok()?),
                };
                if variant.default {
                    default = index;
                }
                compiled.push(Variant {
                    key,
                    pattern: parts_of(&variant.value)?,
                });
            }
            Some(Part::Select(Select {
                var: id.name.to_string(),
                variants: compiled,
                default,
            }))
        }
    }
}

fn inline_part(inline: &ast::InlineExpression<&str>) -> Option<Part> {
    match inline {
        ast::InlineExpression::VariableReference { id } => Some(Part::Var(id.name.to_string())),
        ast::InlineExpression::StringLiteral { value } => Some(Part::Text(
            fluent_syntax::unicode::unescape_unicode_to_string(value).into_owned(),
        )),
        ast::InlineExpression::Placeable { expression } => expression_part(expression),
        _ => None,
    }
}
