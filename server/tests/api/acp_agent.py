# An ACP agent for the tests of `hark acp`: it answers initialize and session/new; each prompt
# announces a tool call and asks permission (request ids from 0, so the first collides with the
# editor's `initialize`), or with the prompt "form" asks a form (elicitation/create), and ends
# the turn saying the result it got and how many replies came for each of its requests.
import json, sys
replies, asked, prompt = {}, 0, None
def send(message):
    sys.stdout.write(json.dumps(message) + "\n"); sys.stdout.flush()
for line in sys.stdin:
    message = json.loads(line)
    method, id = message.get("method"), message.get("id")
    if method == "initialize":
        send({"jsonrpc": "2.0", "id": id, "result": {"protocolVersion": 1,
              "agentCapabilities": {}, "agentInfo": {"name": "fake-agent", "version": "1"}}})
    elif method == "session/new":
        send({"jsonrpc": "2.0", "id": id, "result": {"sessionId": "sess_1"}})
    elif method == "session/prompt" and message["params"]["prompt"][0]["text"] == "form":
        prompt = id
        send({"jsonrpc": "2.0", "id": asked, "method": "elicitation/create", "params": {
              "sessionId": "sess_1", "mode": "form", "message": "How careful should the release be?",
              "requestedSchema": {"type": "object", "properties": {
                  "strategy": {"type": "string", "title": "Strategy", "enum": ["careful", "fast"]},
                  "replicas": {"type": "integer", "title": "Replicas"}},
                "required": ["strategy"]}}})
        asked += 1
    elif method == "session/prompt":
        prompt = id
        call = "call_%d" % asked
        send({"jsonrpc": "2.0", "method": "session/update", "params": {"sessionId": "sess_1",
              "update": {"sessionUpdate": "tool_call", "toolCallId": call, "title": "Run cargo test",
                         "kind": "execute", "status": "pending", "rawInput": {"command": "cargo test"}}}})
        send({"jsonrpc": "2.0", "id": asked, "method": "session/request_permission", "params": {
              "sessionId": "sess_1", "toolCall": {"toolCallId": call}, "options": [
                {"optionId": "allow-once", "name": "Allow", "kind": "allow_once"},
                {"optionId": "allow-always", "name": "Always allow", "kind": "allow_always"},
                {"optionId": "reject", "name": "Reject", "kind": "reject_once"}]}})
        asked += 1
    elif method is None and id is not None:
        replies[str(id)] = replies.get(str(id), 0) + 1
        if replies[str(id)] == 1 and prompt is not None:
            send({"jsonrpc": "2.0", "id": prompt, "result": {"stopReason": "end_turn",
                  "_meta": {"result": message.get("result"), "replies": replies}}})
