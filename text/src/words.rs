//! A page catalogue resolved for one language, as the browser formats with it: the messages
//! without variables as they read, the others as patterns of text, variables and selections
//! on a count. The daemon makes it from the Fluent sources (`compile`, where Fluent resolves
//! every fixed text itself); the browser walks it (`Words::format`), choosing a plural form
//! with its own `Intl.PluralRules`, so its WebAssembly carries no Fluent parser or plural
//! tables (issue 30). The walk is ours because it is the part of Fluent a resolved catalogue
//! still needs: a select on a number or a name, and placing a variable. A test holds it to
//! Fluent's output for every message and language (`tests`), and a browser test holds the page
//! to it.

#[cfg(feature = "server")]
mod compile;
#[cfg(all(test, feature = "server"))]
mod tests;

#[cfg(feature = "server")]
pub use compile::{compile, resolved};

use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::collections::BTreeMap;

/// One language's page catalogue, resolved.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Words {
    /// The messages without variables, as they read.
    pub plain: BTreeMap<String, String>,
    /// The messages with variables.
    pub patterns: BTreeMap<String, Vec<Part>>,
}

/// A piece of a message with variables.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Part {
    Text(String),
    /// A variable's value, placed as it is (a number in plain digits, as Fluent writes one).
    Var(String),
    Select(Select),
}

/// A choice among variants by a variable's value.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Select {
    pub var: String,
    pub variants: Vec<Variant>,
    /// The index of the variant taken when none matches.
    pub default: usize,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Variant {
    pub key: Key,
    pub pattern: Vec<Part>,
}

/// What a variant matches: a number exactly, or a name (a plural category for a number, the
/// very text for a text).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Key {
    Name(String),
    Number(i64),
}

/// A message's variable: a count (Hark passes whole numbers only) or a text.
#[derive(Clone, Debug, PartialEq)]
pub enum Arg<'a> {
    Number(i64),
    Text(Cow<'a, str>),
}

macro_rules! number_arg {
    ($($number:ty),*) => {$(
        impl From<$number> for Arg<'_> {
            fn from(number: $number) -> Self {
                Arg::Number(i64::try_from(number).unwrap_or(i64::MAX))
            }
        }
    )*};
}

number_arg!(i8, i16, i32, i64, isize, u8, u16, u32, u64, usize);

impl<'a> From<&'a str> for Arg<'a> {
    fn from(text: &'a str) -> Self {
        Arg::Text(Cow::Borrowed(text))
    }
}

impl From<String> for Arg<'_> {
    fn from(text: String) -> Self {
        Arg::Text(Cow::Owned(text))
    }
}

impl<'a> From<&'a String> for Arg<'a> {
    fn from(text: &'a String) -> Self {
        Arg::Text(Cow::Borrowed(text.as_str()))
    }
}

impl<'a> From<Cow<'a, str>> for Arg<'a> {
    fn from(text: Cow<'a, str>) -> Self {
        Arg::Text(text)
    }
}

/// The plural categories of Unicode's rules, as `Intl.PluralRules` names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Plural {
    Zero,
    One,
    Two,
    Few,
    Many,
    Other,
}

impl Plural {
    /// The category `name` names (`Intl.PluralRules.select`'s answer), if any.
    pub fn named(name: &str) -> Option<Plural> {
        Some(match name {
            "zero" => Plural::Zero,
            "one" => Plural::One,
            "two" => Plural::Two,
            "few" => Plural::Few,
            "many" => Plural::Many,
            "other" => Plural::Other,
            _ => return None,
        })
    }
}

impl Words {
    /// The message `key` with its variables, choosing plural forms by `plural`; `None` when
    /// this catalogue lacks it.
    pub fn format(
        &self,
        key: &str,
        args: &[(&str, Arg<'_>)],
        plural: impl Fn(i64) -> Plural,
    ) -> Option<String> {
        if let Some(text) = self.plain.get(key) {
            return Some(text.clone());
        }
        let pattern = self.patterns.get(key)?;
        let mut out = String::new();
        write(&mut out, pattern, args, &plural);
        Some(out)
    }

    /// A catalogue of one message, a language's own name (`name`), for a page shown in another
    /// language (its picker).
    pub fn named(name: String) -> Words {
        Words {
            plain: BTreeMap::from([("language-name".to_string(), name)]),
            patterns: BTreeMap::new(),
        }
    }
}

fn write(
    out: &mut String,
    pattern: &[Part],
    args: &[(&str, Arg<'_>)],
    plural: &dyn Fn(i64) -> Plural,
) {
    for part in pattern {
        match part {
            Part::Text(text) => out.push_str(text),
            Part::Var(name) => match value(args, name) {
                Some(Arg::Number(number)) => out.push_str(&number.to_string()),
                Some(Arg::Text(text)) => out.push_str(text),
                // As Fluent writes a variable it was not given.
                None => {
                    out.push_str("{$");
                    out.push_str(name);
                    out.push('}');
                }
            },
            Part::Select(select) => {
                let chosen = value(args, &select.var).and_then(|arg| {
                    select
                        .variants
                        .iter()
                        .find(|variant| matches(&variant.key, arg, plural))
                });
                if let Some(variant) = chosen.or_else(|| select.variants.get(select.default)) {
                    write(out, &variant.pattern, args, plural);
                }
            }
        }
    }
}

fn value<'v, 'a>(args: &'v [(&str, Arg<'a>)], name: &str) -> Option<&'v Arg<'a>> {
    args.iter()
        .find(|(given, _)| *given == name)
        .map(|(_, arg)| arg)
}

/// Fluent's matching: a number key equals the number, a name key equals a text or names the
/// number's plural category.
fn matches(key: &Key, arg: &Arg<'_>, plural: &dyn Fn(i64) -> Plural) -> bool {
    match (key, arg) {
        (Key::Number(key), Arg::Number(number)) => key == number,
        (Key::Name(name), Arg::Text(text)) => name == text,
        (Key::Name(name), Arg::Number(number)) => Plural::named(name) == Some(plural(*number)),
        (Key::Number(_), Arg::Text(_)) => false,
    }
}
