//! Turns a reference source file into the student's stub, with `syn`.
//!
//! Public functions and methods keep their signatures and doc comments; their
//! bodies become `todo!()` with a message naming the function and the
//! statement's section. Trait implementations are stubbed the same way.
//! Private helpers and `#[cfg(test)]` modules are dropped: they are the
//! reference's way, not part of the exercise. Types, constants and imports
//! stay, so everything the tests name still compiles.

use syn::visit_mut::VisitMut;
use syn::{File, ImplItem, Item, Visibility};

fn is_cfg_test(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("cfg")
            && a.meta
                .require_list()
                .is_ok_and(|l| l.tokens.to_string().trim() == "test")
    })
}

fn is_public(vis: &Visibility) -> bool {
    matches!(vis, Visibility::Public(_))
}

struct Stubber<'a> {
    module: &'a str,
    section: &'a str,
    /// The type of the impl block being visited, for messages.
    self_type: Option<String>,
}

impl Stubber<'_> {
    fn body(&self, name: &str) -> syn::Block {
        let path = match &self.self_type {
            Some(ty) => format!("{}::{ty}::{name}", self.module),
            None => format!("{}::{name}", self.module),
        };
        let message = format!(
            "write `{path}`: see EXERCISE.md, section \"{}\"",
            self.section
        );
        syn::parse_quote!({ todo!(#message) })
    }
}

impl VisitMut for Stubber<'_> {
    fn visit_file_mut(&mut self, file: &mut File) {
        file.items.retain(|item| !item_is_private_fn_or_test(item));
        for item in &mut file.items {
            self.visit_item_mut(item);
        }
        file.items
            .retain(|item| !matches!(item, Item::Impl(i) if i.items.is_empty()));
    }

    fn visit_item_mut(&mut self, item: &mut Item) {
        match item {
            Item::Fn(f) => {
                let body = self.body(&f.sig.ident.to_string());
                *f.block = body;
            }
            Item::Impl(imp) => {
                let is_trait = imp.trait_.is_some();
                imp.items.retain(|i| match i {
                    ImplItem::Fn(f) => is_trait || is_public(&f.vis),
                    _ => true,
                });
                let ty = &imp.self_ty;
                self.self_type = Some(quote_type(ty));
                for i in &mut imp.items {
                    if let ImplItem::Fn(f) = i {
                        f.block = self.body(&f.sig.ident.to_string());
                    }
                }
                self.self_type = None;
            }
            Item::Mod(m) => {
                if let Some((_, items)) = &mut m.content {
                    items.retain(|item| !item_is_private_fn_or_test(item));
                    for item in items {
                        self.visit_item_mut(item);
                    }
                }
            }
            _ => {}
        }
    }
}

fn quote_type(ty: &syn::Type) -> String {
    match ty {
        syn::Type::Path(p) => p
            .path
            .segments
            .last()
            .map(|s| s.ident.to_string())
            .unwrap_or_default(),
        _ => "Self".to_owned(),
    }
}

fn item_is_private_fn_or_test(item: &Item) -> bool {
    match item {
        Item::Fn(f) => !is_public(&f.vis),
        Item::Mod(m) => is_cfg_test(&m.attrs),
        _ => false,
    }
}

/// The stub of `source`, a file of module `module` (such as `velha::exam`),
/// whose statement is the EXERCISE.md section `section`.
pub fn stub_source(source: &str, module: &str, section: &str) -> Result<String, syn::Error> {
    let mut file = syn::parse_file(source)?;
    Stubber {
        module,
        section,
        self_type: None,
    }
    .visit_file_mut(&mut file);
    // Imports and helpers the reference used may be unused in the stub.
    file.attrs.push(
        syn::parse_quote!(#![allow(unused_imports, unused_variables, unused_mut, dead_code)]),
    );
    Ok(prettyplease::unparse(&file))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn public_bodies_become_todo_and_private_helpers_go() {
        let source = r#"
            //! A module.
            use std::fmt;
            /// Doubles.
            pub fn double(x: u32) -> u32 { helper(x) }
            fn helper(x: u32) -> u32 { x * 2 }
            pub struct Thing(u8);
            impl Thing {
                /// Makes one.
                pub fn new() -> Thing { Thing(1) }
                fn secret(&self) -> u8 { self.0 }
            }
            impl fmt::Display for Thing {
                fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result { write!(f, "{}", self.0) }
            }
            #[cfg(test)]
            mod tests { #[test] fn t() {} }
        "#;
        let stub = stub_source(source, "game::thing", "Game").unwrap();
        assert!(stub.contains("/// Doubles."));
        assert!(stub.contains("pub fn double(x: u32) -> u32"));
        assert!(stub.contains(
            "todo!(\"write `game::thing::double`: see EXERCISE.md, section \\\"Game\\\"\")"
        ));
        assert!(stub.contains("write `game::thing::Thing::new`"));
        assert!(stub.contains("write `game::thing::Thing::fmt`"));
        assert!(!stub.contains("helper"));
        assert!(!stub.contains("secret"));
        assert!(!stub.contains("mod tests"));
        assert!(!stub.contains("x * 2"));
        syn::parse_file(&stub).expect("the stub parses");
    }
}
