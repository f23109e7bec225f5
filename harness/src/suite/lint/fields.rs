//! The capsule definition's frontmatter fields, by the section that names them: what §2 requires,
//! the values checks 2–4 allow, what §6 counts as identity and as standard editing, §3's optional
//! fields and §2's renames. The lists are the definition's; [`super::capsule`] checks against them.

pub const REQUIRED: [&str; 12] = [
    "uid",
    "type",
    "agent_name",
    "agent_class",
    "role",
    "capability_scope",
    "status",
    "boot_protocol",
    "created",
    "created_by",
    "modified",
    "modified_by",
];
pub const AGENT_CLASSES: [&str; 2] = ["executive", "director"];
pub const BOOT_PROTOCOLS: [&str; 3] = ["playbook", "commissioned", "on-demand"];
pub const STATUSES: [&str; 5] = ["active", "locked", "retired", "archived", "suspended"];
/// §6 identity fields: `scope` as §6 lists it, `capability_scope` as §2 has called it since.
pub const IDENTITY_FIELDS: [&str; 6] = [
    "agent_name",
    "agent_class",
    "role",
    "scope",
    "capability_scope",
    "boot_protocol",
];
/// §6 standard editing: hygiene fields and pointer fields.
pub const HYGIENE_FIELDS: [&str; 3] = ["last_updated", "modified", "modified_by"];
pub const POINTER_FIELDS: [&str; 6] = [
    "status_card",
    "generation_log",
    "living_transfer",
    "briefing_file",
    "board",
    "channels",
];
/// §3 optional fields (pointers above); a mutation of an authored one needs a lock-break.
pub const OPTIONAL_FIELDS: [&str; 9] = [
    "soul",
    "dna",
    "retirement_acts",
    "governor",
    "locked_at",
    "locked_by",
    "subsystem_hub",
    "member_of",
    "user_facing",
];
/// Fields §2 had under another name, with the section that says so.
pub const RENAMED: [(&str, &str, &str); 1] = [(
    "scope",
    "capability_scope",
    "§2 calls it capability_scope (renamed from scope in v1.72)",
)];
