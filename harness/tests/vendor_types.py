"""Request bodies the harness sent, checked against the vendors' own request types.

Reads JSON Lines on stdin, each {"api": "openai" | "anthropic", "body": {...}}, and checks each
body against the request type of the vendor's official Python SDK: `openai`'s
`CompletionCreateParamsNonStreaming` and `anthropic`'s `MessageCreateParamsNonStreaming`.
pydantic validates the types; a walk over the TypedDicts refuses any key the type does not name
(pydantic ignores those), except the reasoning fields OpenAI-compatible servers define beside
OpenAI's own (`reasoning_content`, `reasoning`, `reasoning_details` on an assistant message),
which the walk sets aside. Prints one line per problem and exits 1 when there is any; exits 2
when the packages cannot be imported.
"""

import json
import sys
import typing

try:
    import typing_extensions
    from pydantic import TypeAdapter
    from openai.types.chat import completion_create_params as openai_params
    from anthropic.types import message_create_params as anthropic_params
except ImportError as e:  # pragma: no cover - the caller says what to install
    print(f"cannot import the vendors' packages: {e}", file=sys.stderr)
    sys.exit(2)

TYPES = {
    "openai": openai_params.CompletionCreateParamsNonStreaming,
    "anthropic": anthropic_params.MessageCreateParamsNonStreaming,
}
# Fields OpenAI-compatible servers (DeepSeek, Kimi, OpenRouter) read on an assistant message that
# OpenAI's own types do not name.
EXTENSIONS = {"reasoning_content", "reasoning", "reasoning_details"}

WRAPPERS = {"Required", "NotRequired", "ReadOnly", "Annotated"}


def unwrap(tp):
    while True:
        origin = typing.get_origin(tp)
        name = getattr(origin, "_name", None) or getattr(origin, "__name__", None)
        if name in WRAPPERS or (origin is not None and str(origin).endswith(("Required", "NotRequired"))):
            tp = typing.get_args(tp)[0]
        elif origin is typing.Annotated or (hasattr(typing_extensions, "Annotated") and origin is typing_extensions.Annotated):
            tp = typing.get_args(tp)[0]
        else:
            return tp


def is_typeddict(tp):
    return typing.is_typeddict(tp) or typing_extensions.is_typeddict(tp)


def unknown_keys(tp, value, path):
    """Keys `value` holds that the type `tp` does not name, as paths; [] when none."""
    tp = unwrap(tp)
    origin = typing.get_origin(tp)
    if is_typeddict(tp):
        if not isinstance(value, dict):
            return [f"{path}: not an object"]
        hints = typing_extensions.get_type_hints(tp, include_extras=True)
        problems = []
        for k, v in value.items():
            if k not in hints:
                problems.append(f"{path}.{k}: not a field of {tp.__name__}")
            else:
                problems.extend(unknown_keys(hints[k], v, f"{path}.{k}"))
        return problems
    if origin in (typing.Union, getattr(__import__("types"), "UnionType", None)):
        tried = [unknown_keys(m, value, path) for m in typing.get_args(tp)]
        return [] if any(not t for t in tried) else min(tried, key=len)
    if origin is typing.Literal or origin is typing_extensions.Literal:
        return [] if value in typing.get_args(tp) else [f"{path}: {value!r} is not one of {typing.get_args(tp)}"]
    if origin in (list, typing.List, __import__("collections.abc").abc.Iterable, __import__("collections.abc").abc.Sequence):
        args = typing.get_args(tp)
        if not isinstance(value, list) or not args:
            return []
        return [p for i, item in enumerate(value) for p in unknown_keys(args[0], item, f"{path}[{i}]")]
    return []


def check(api, body):
    body = json.loads(json.dumps(body))
    if api == "openai":
        for m in body.get("messages", []):
            if isinstance(m, dict) and m.get("role") == "assistant":
                for k in EXTENSIONS:
                    m.pop(k, None)
    tp = TYPES[api]
    problems = []
    try:
        TypeAdapter(tp).validate_python(body)
    except Exception as e:  # pydantic's ValidationError, said in full
        problems.append(str(e))
    problems.extend(unknown_keys(tp, body, "body"))
    return problems


def main():
    failed = 0
    for n, line in enumerate(sys.stdin, 1):
        if not line.strip():
            continue
        item = json.loads(line)
        for p in check(item["api"], item["body"]):
            failed += 1
            print(f"request {n} ({item['api']}): {p}")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
