#!/usr/bin/env python3
"""A scripted "model" using Quiver through quiver_client: one of Quiver's tools and one of its own.

    python3 examples/weather_agent.py --workspace DIR [--quiver "quiver --trust-project"]

Prints one JSON object: the tools the model saw and the results of its calls.
"""

import argparse
import json
import os
import shlex
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from quiver_client import ExternalTool, QuiverClient, QuiverError, ToolProgress  # noqa: E402


def lookup_weather(args, context):
    context.progress(ToolProgress(message="asking the sky"))
    return f"Sunny in {args['city']}"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--workspace", default=os.getcwd())
    parser.add_argument("--quiver", default="quiver --trust-project")
    options = parser.parse_args()
    weather = ExternalTool(
        name="lookup_weather",
        description="The weather in a city.",
        parameters={"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]},
        execute=lookup_weather,
        skip_permission=True,
    )
    try:
        with QuiverClient(shlex.split(options.quiver), cwd=options.workspace) as client:
            if client.info.trust.state != "trusted":
                print(client.info.trust.notice, client.info.trust.fix, sep="\n", file=sys.stderr)
            session = client.create_session(external_tools=[weather])
            session.ready()
            tools = [tool["name"] for tool in session.render("mcp")["tools"]]
            # What a model would ask for, scripted: read a file, then ask for the weather.
            results = session.execute([
                {"id": "call-1", "name": "list_dir", "args": {"path": "."}},
                {"id": "call-2", "name": "lookup_weather", "args": {"city": "Lisbon"}},
            ])
            session.close()
    except QuiverError as error:
        print(f"quiver refused: {error}", file=sys.stderr)
        return 1
    print(json.dumps({"tools": tools, "results": results}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
