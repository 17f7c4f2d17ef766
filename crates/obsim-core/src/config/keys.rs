//! `key_table!`: one declaration per key of a table whose keys each set
//! one field of a resolved type over a base (TCP parameters over a profile,
//! switching settings over `[optical]`, metrics and trace settings over
//! their defaults). From the one list follow the table's allowed keys, the
//! reading of every key in that order (so errors come in that order) and the
//! setting of each field.

/// Declares the keys of one table, each once:
/// - `name: Type = parser => field;` reads `name` with `parser` (a
///   `Fn(&Val) -> Result<Type, String>`) and sets `field` of the target
///   (a path such as `rto.min`) when the key is given and valid;
/// - `name: Type = parser;` reads it for the caller to combine by hand;
/// - `[name]: Keys;` a nested table declared by another `key_table!`;
/// - `(name);` a key the caller reads itself, after the others.
///
/// It defines `$KEYS` (the allowed keys, in this order in messages) and a
/// struct `$Name` holding what one table gave ([`Got`](super::walk::Got)
/// per key) with `read`, `set` (onto `$Target`) and `valid`.
macro_rules! key_table {
    (
        $(#[$doc:meta])*
        struct $Name:ident for $Target:ty, keys $KEYS:ident;
        $( $key:ident : $ty:ty = $parse:expr $(=> $($dst:ident).+)? ; )*
        $( [$tkey:ident] : $tty:ident ; )*
        $( ($hkey:ident) ; )*
    ) => {
        /// The keys of this table, in the order messages list them.
        pub(crate) const $KEYS: &[&str] =
            &[$(stringify!($key),)* $(stringify!($tkey),)* $(stringify!($hkey),)*];

        $(#[$doc])*
        #[derive(Clone, Copy, Debug, Default)]
        pub(super) struct $Name {
            $( $key: $crate::config::walk::Got<$ty>, )*
            $( $tkey: $tty, )*
        }

        #[allow(dead_code)] // not every table uses every method
        impl $Name {
            /// The keys of this table.
            const KEYS: &'static [&'static str] = $KEYS;

            /// Reads every declared key of `t` in order (a nested table at
            /// its key; nothing of it if it is not a table: reported).
            fn read(
                errs: &mut $crate::config::walk::Errors,
                t: &$crate::config::walk::Table<'_>,
            ) -> Self {
                Self {
                    $( $key: t.get(errs, stringify!($key), $parse), )*
                    $( $tkey: match t.raw(stringify!($tkey)) {
                        None => $tty::default(),
                        Some(v) => {
                            let path = t.key_path(stringify!($tkey));
                            $crate::config::walk::Table::open(errs, &path, v, $tty::KEYS)
                                .map_or_else($tty::default, |sub| $tty::read(errs, &sub))
                        }
                    }, )*
                }
            }

            /// Sets the field of every given, valid key that has one.
            fn set(&self, c: &mut $Target) {
                $( $( if let $crate::config::walk::Got::Value(v) = self.$key {
                    c.$($dst).+ = v;
                } )? )*
                $( self.$tkey.set(c); )*
            }

            /// No declared key was invalid.
            fn valid(&self) -> bool {
                true
                    $( && !matches!(self.$key, $crate::config::walk::Got::Invalid) )*
                    $( && self.$tkey.valid() )*
            }
        }
    };
}
