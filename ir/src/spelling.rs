//! Enums whose values each have one spelling in the text syntax: NIR's atomic ops and
//! image dimensions, the index kinds, the vISA fields of LSC messages.
//!
//! Each such enum used to list its variants three times (the declaration, `ALL`, the
//! `name` match), and the lists had to agree for the text form to round-trip and for
//! the encodings that are positions in `ALL` to decode. [`spelled_enum!`] declares the
//! enum from one list of `Variant => "spelling"` lines, so they cannot drift apart.

/// Declares an enum from `Variant => "spelling"` lines (each with its doc comment and,
/// where the enum's discriminants are an encoding, `Variant = 0x0C => "spelling"`),
/// together with:
///
/// - `const ALL`: every variant in declaration order, an array (callers iterate it by
///   value and use positions in it as index encodings);
/// - `fn name(self) -> &'static str`: the spelling;
/// - `fn from_name(&str) -> Option<Self>`: its inverse;
/// - `Display`, which writes the spelling.
///
/// The doc comments of the three items are given in the invocation, as
/// `/// ... const ALL;`, `/// ... fn name;` and `/// ... fn from_name;`, before the
/// variants.
macro_rules! spelled_enum {
    (
        $(#[$attr:meta])*
        pub enum $ty:ident {
            $(#[doc = $all_doc:literal])+
            const ALL;
            $(#[doc = $name_doc:literal])+
            fn name;
            $(#[doc = $from_doc:literal])+
            fn from_name;

            $(
                $(#[doc = $doc:literal])+
                $variant:ident $(= $disc:literal)? => $spelling:literal,
            )+
        }
    ) => {
        $(#[$attr])*
        pub enum $ty {
            $(
                $(#[doc = $doc])+
                $variant $(= $disc)?,
            )+
        }

        impl $ty {
            $(#[doc = $all_doc])+
            pub const ALL: [$ty; [$($spelling),+].len()] = [$($ty::$variant),+];

            $(#[doc = $name_doc])+
            pub fn name(self) -> &'static str {
                match self {
                    $($ty::$variant => $spelling,)+
                }
            }

            $(#[doc = $from_doc])+
            pub fn from_name(s: &str) -> Option<$ty> {
                $ty::ALL.iter().copied().find(|v| v.name() == s)
            }
        }

        impl std::fmt::Display for $ty {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.name())
            }
        }
    };
}
