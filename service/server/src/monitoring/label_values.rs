//! [`label_values!`]: an enum of metric label values declared once, with the list of all of them
//! and each one's label, so that the list (which puts every series on the metrics page at 0 from
//! start-up) can never miss a value added later.

/// Declares `enum $name` with the given attributes and variants, `$name::ALL` (every variant, in
/// declaration order) and `$name::label` (each variant's label value, as written after `=>`).
macro_rules! label_values {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident {
            $( $(#[$variant_meta:meta])* $variant:ident => $label:literal, )+
        }
    ) => {
        $(#[$meta])*
        $vis enum $name {
            $( $(#[$variant_meta])* $variant, )+
        }

        impl $name {
            /// Every value, in declaration order, so that each one's series exists from the start.
            $vis const ALL: [$name; [$(stringify!($variant)),+].len()] = [$($name::$variant),+];

            /// The label value.
            $vis fn label(self) -> &'static str {
                match self {
                    $( $name::$variant => $label, )+
                }
            }
        }
    };
}

pub(crate) use label_values;

#[cfg(test)]
mod tests {
    label_values! {
        /// A sample.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        enum Sample {
            /// The first.
            First => "first",
            Second => "second_one",
        }
    }

    #[test]
    fn every_value_is_listed_with_its_label() {
        assert_eq!(Sample::ALL, [Sample::First, Sample::Second]);
        assert_eq!(Sample::First.label(), "first");
        assert_eq!(Sample::Second.label(), "second_one");
    }
}
