"""The official MCP Python SDK (pinned in requirements.txt) driving the real `hark mcp` shim at
each revision it speaks: the initialize handshake (2025-11-25) and 2026-07-28 (no initialize;
Hark's form comes as an input_required round). For each: the tools are listed, a question is
answered in the client's form (and shows as answered there on the daemon), and another is
answered over the daemon's REST API while the call waits. Then 2025-11-25's experimental tasks:
ask_user as a task, its state, and the answer from tasks/result. `cargo xtask test` runs it; every
wait is bounded. Usage: sdk_client.py <hark binary> <HARK_HOME> <port>."""

import asyncio
import json
import sys
import urllib.request

import mcp_types as types
from mcp import Client, ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.shared.jsonrpc_dispatcher import JSONRPCDispatcher

HARK, HOME, PORT = sys.argv[1], sys.argv[2], sys.argv[3]
BASE = f"http://127.0.0.1:{PORT}"
DEPLOY = {
    "questions": [
        {
            "question": "Deploy now?",
            "options": [{"label": "Yes", "recommended": True}, {"label": "No"}],
        }
    ]
}


def rest(method, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        BASE + path, data=data, method=method, headers={"content-type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        text = response.read().decode()
        return json.loads(text) if text else None


async def pending_one():
    for _ in range(200):
        try:
            pending = rest("GET", "/api/questions?status=pending")["questions"]
        except OSError:
            pending = []
        if pending:
            return pending[0]
        await asyncio.sleep(0.05)
    raise AssertionError("no question arrived")


def server():
    return StdioServerParameters(
        command=HARK,
        args=["mcp"],
        env={"HARK_HOME": HOME, "HARK_PORT": PORT, "HARK_LOG": "warn", "BROWSER": "true"},
    )


async def answer_in_form(_context, params):
    schema = params.requested_schema
    assert schema["properties"]["q1"]["oneOf"][1]["const"] == "No", schema
    return types.ElicitResult(action="accept", content={"q1": "No"})


def text(result):
    assert not result.is_error, result
    return result.content[0].text


async def one_revision(mode):
    name = types.Implementation(name="python-sdk", version="2.3.0")
    async with Client(server(), mode=mode, client_info=name, elicitation_callback=answer_in_form) as client:
        tools = {tool.name for tool in (await client.list_tools()).tools}
        assert {"ask_user", "get_answer"} <= tools, tools
        result = await asyncio.wait_for(client.call_tool("ask_user", DEPLOY), 30)
        assert text(result) == "No", text(result)
        question = rest("GET", f"/api/questions/{result.structured_content['id']}")
        assert question["answeredVia"] == "client", question
        assert question["source"]["client"] == "python-sdk 2.3.0", question["source"]
    async with Client(server(), mode=mode, client_info=name) as client:
        call = asyncio.create_task(client.call_tool("ask_user", DEPLOY))
        waiting = await pending_one()
        rest("POST", f"/api/questions/{waiting['id']}/answer", {"answers": [{"selected": ["Yes"]}]})
        assert text(await asyncio.wait_for(call, 30)) == "Yes"
    print(f"Python SDK 2.3, {mode}: tools listed, answered in the form and on the page")


async def tasks_2025():
    """2025-11-25's experimental tasks: the SDK has their types but no call that asks for one, so
    the task-augmented tools/call goes out raw; every answer is read by the SDK's own models."""
    async with stdio_client(server()) as (read, write):
        dispatcher = JSONRPCDispatcher(read, write)
        async with ClientSession(dispatcher=dispatcher) as session:
            init = await session.initialize()
            assert init.protocol_version == "2025-11-25", init.protocol_version
            assert init.capabilities.tasks is not None, init.capabilities
            raw = await dispatcher.send_raw_request(
                "tools/call", {"name": "ask_user", "arguments": DEPLOY, "task": {"ttl": 60_000}}
            )
            task_id = types.CreateTaskResult.model_validate(raw).task.task_id
            got = types.GetTaskRequest(params=types.GetTaskRequestParams(task_id=task_id))
            status = await session.send_request(got, types.GetTaskResult)
            assert status.status == "working", status
            waiting = await pending_one()
            rest("POST", f"/api/questions/{waiting['id']}/answer", {"answers": [{"selected": ["Yes"]}]})
            payload = types.GetTaskPayloadRequest(params=types.GetTaskPayloadRequestParams(task_id=task_id))
            result = await asyncio.wait_for(session.send_request(payload, types.CallToolResult), 30)
            assert text(result) == "Yes", result
            assert result.meta["io.modelcontextprotocol/related-task"]["taskId"] == task_id, result.meta
            status = await session.send_request(got, types.GetTaskResult)
            assert status.status == "completed", status
    print("Python SDK 2.3, 2025-11-25 tasks: the handle at once, tasks/get, the answer from tasks/result")


async def main():
    try:
        for mode in ["legacy", "2026-07-28"]:
            await one_revision(mode)
        await tasks_2025()
    finally:
        try:
            rest("POST", "/api/stop")
        except OSError:
            pass


asyncio.run(main())
