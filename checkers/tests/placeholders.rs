//! A placeholder where the charter asks for substance is not substance (issue 50): E11's state
//! file needs "at least one /^INV-\d+/ line", and "INV-1: TBD" names no constraint.

mod common;

fn state_write(inv_lines: &str) -> String {
    format!(
        r###"
[[golden]]
name = "state"
variant = "default"
expect = "fail"

[[golden.message]]
role = "assistant"
content = "T2; state goes to CHARTER_STATE.md first."
tool_calls = [{{ id = "w1", name = "write_file", arguments = {{ path = "CHARTER_STATE.md", content = "## Task\nRename config key K everywhere and redeploy.\n\n## INV\n{inv_lines}\n" }} }}]

[[golden.message]]
role = "tool"
tool_call_id = "w1"
name = "write_file"
content = "wrote 90 bytes to CHARTER_STATE.md"
"###,
        inv_lines = inv_lines.replace('\n', "\\n")
    )
}

#[test]
fn an_inv_line_that_is_only_a_placeholder_is_no_invariant() {
    for placeholder in [
        "INV-1: TBD",
        "INV-1: to be determined",
        "INV-1 — …",
        "INV-1: <invariant>",
    ] {
        let v = common::check_golden_text("E11", &state_write(placeholder));
        let c = common::criterion(&v, "inv-line");
        assert!(
            !c.pass && !c.unsure && c.detail.contains("placeholder"),
            "{placeholder}: {c:?}"
        );
    }
}

#[test]
fn an_inv_line_that_names_a_constraint_counts_beside_a_placeholder() {
    let v = common::check_golden_text(
        "E11",
        &state_write("INV-1: TBD\nINV-2: no occurrence of K remains (checked by search)"),
    );
    let c = common::criterion(&v, "inv-line");
    assert!(c.pass, "{c:?}");
    assert_eq!(c.detail, "INV line: INV-2");
}
