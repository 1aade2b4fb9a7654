### Messages only the daemon formats: kept out of the page's WebAssembly.

# The 401 page, the refused-form page and the exports (rendered by the daemon)
unauthorized-title = Pair this device first
unauthorized-body = This Hark page holds questions from someone's AI agents, so it opens only on their computer or on a device paired with it.
unauthorized-wrong = This pairing link is wrong or no longer valid: the code was replaced.
unauthorized-too-many = Too many wrong codes came from this device. Wait a minute, then try again.
unauthorized-how = To pair, open Settings → “Answer from your phone” on the computer running Hark and scan the QR code, or run “hark url” there.
bad-request-title = Hark could not read this form
export-title = Questions from your agents
export-asked = Asked { $when }
export-by = by { $client }
export-messages-title = Messages to your agents
export-message-waiting = waiting for the agent
export-message-delivered = delivered { $when }
export-images = { $count ->
    [one] One image attached (its bytes are in the JSON export)
   *[other] { $count } images attached (their bytes are in the JSON export)
}

# Pushes to the phone (ntfy)
push-waiting = Hark: a question is waiting
push-open = Open
push-open-on-computer = Open Hark on your computer to answer.
push-test = Hark can reach this phone. Questions from your agents will appear here.
push-session = Hark: one of your agents finished or is waiting for you
push-reply = Reply

# How a question ended (pushes and chat messages)
outcome-answered = Answered: { $answer }
outcome-declined = Skipped
outcome-timeout = Timed out without an answer
outcome-cancelled = Withdrawn by the agent

# Chat apps: the walk's buttons, tell, reminders, and Telegram's reply prompts
chat-step = Question { $step } of { $count }
chat-tell-sent = Sent to { $agent }. It reaches the agent the next time it calls Hark.
chat-tell-empty = Write the message after /tell, such as: /tell use the staging database
chat-tell-nobody = No agent has asked anything yet, so there is nobody to tell.
chat-tell-too-long = That message is too long for an agent; keep it under 4000 characters.
chat-tell-too-many = Too many messages already wait for that agent; it collects them the next time it reaches Hark.
chat-tell-failed = Hark could not keep that message; please send it again.
chat-ticked = Ticked: { $options }
chat-send = Send
chat-other = Other…
chat-answer = Answer…
chat-skip = Skip
chat-skip-now = Skip without a note
chat-back = Back
telegram-own-words-prompt = Type your answer and send it as a reply to this message.
telegram-skip-note-prompt = Why skip? Reply with a note for the agent, or tap “Skip without a note”.
telegram-reply-placeholder = Your answer
chat-declined-note = Skipped: { $note }
chat-remind = { $count ->
    [one] A question is still waiting for you:
   *[other] { $count } questions are still waiting for you:
}
chat-stale = { $channel ->
        [wechat] That reply was written before this question was shown, so it was not used. Here is the question again:
       *[other] That button is out of date: use the message's current buttons.
    }
chat-closed = This question is already answered or closed.
chat-tick-first = { $channel ->
        [wechat] Reply with at least one option number.
       *[other] Tick at least one option first, or use “Other…”.
    }
chat-answer-sent = Answer sent.
chat-skipped = Skipped.
chat-too-long = That answer is too long; send a shorter one.
chat-not-recorded = Hark could not record this now. Try again in a moment.
chat-skip-word = skip
chat-text-only = Hark reads text only: reply with a number or words.
chat-nothing-waiting = No question is waiting for you right now.
chat-no-such-option = There is no option with that number.
chat-one-option = This question takes one option: reply with one number.

# WeChat (text only: the person replies with numbers, words or the skip word)
wechat-recommended = recommended
wechat-how-one = Reply with the number of your choice.
wechat-how-many = Reply with the numbers of your choices, such as 1 3.
wechat-how-words = Or write your own answer.
wechat-how-text = Reply with your answer.
wechat-how-skip = Reply “{ $skip }” to decline, with a note after it if you like.
wechat-more-waiting = { $count ->
    [one] One more question waits after this one.
   *[other] { $count } more questions wait after this one.
}
wechat-via = { $place ->
    [page] on Hark's page
    [client] in the agent's own window
    [rule] by a rule you kept
   *[push] from a push notification
}
wechat-via-channel = in { $channel }
wechat-closed-via = { $name }: { $outcome }, { $place }.
wechat-closed = { $name }: { $outcome }.
wechat-answer-sent = Answer sent: { $answer }
wechat-skipped = Skipped.
wechat-skipped-note = Skipped: { $note }
wechat-remind = This question still waits for your answer.

# Claude Code's and Codex's permission requests, asked in Hark (`hark hook`)
hook-permission = Allow { $tool }?
# A command shown literally: what stands for long runs of blanks and empty lines, and a cut
literal-blanks = ⟨{ $count } blanks⟩
literal-empty-lines = ⟨{ $count } empty lines⟩
literal-cut = ⟨{ $count } more characters not shown⟩
hook-allow = Allow
hook-deny = Deny
# What Cursor shows the person when a call was denied in Hark
hook-denied = Denied in Hark.
# Another MCP server's form, asked in Hark (Claude Code's Elicitation hook)
hook-elicitation-title = { $server }: { $message }
hook-yes = Yes
hook-no = No
hook-leave-empty = Leave empty
hook-not-number = “{ $typed }” is not a number.
hook-not-integer = “{ $typed }” is not a whole number.
hook-too-small = That is below the least this takes, { $min }.
hook-too-large = That is above the most this takes, { $max }.
hook-too-short = That is too short: at least { $min } characters.
hook-too-long = That is too long: at most { $max } characters.
hook-too-few = Tick at least { $min }.
hook-too-many = Tick at most { $max }.
hook-not-format = { $format ->
    [email] That is not an email address.
    [uri] That is not a full web address (such as https://example.com).
    [date] That is not a date: write it as 2026-12-31.
   *[date-time] That is not a date and time: write it as 2026-12-31T17:00:00Z.
}
# A plan to approve (Claude Code's ExitPlanMode)
hook-plan-header = Plan
hook-plan-ask = { $agent } has a plan and waits for your go-ahead to start.
hook-plan-approve = Approve
hook-plan-keep = Keep planning
# "Always allow": the rule the agent suggests, shown before it is kept
hook-always-allow = Always allow { $rule }
hook-always-mode = Allow, and switch to the { $mode } mode
hook-always-kept = Kept in { $place }
hook-always-session = Until this session ends
hook-always-allow-call = Always allow
hook-always-allow-means = Allow now, and from now on Hark allows this exact call from { $agent } without asking you. You can take it back in Hark's settings.
hook-always-deny-call = Always deny
hook-always-deny-means = Deny now, and from now on Hark denies this exact call from { $agent } without asking you. You can take it back in Hark's settings.

# Chat apps' reply windows (Slack's and Discord's modals, SPEC §17)
chat-pick = Pick options
chat-answer-title = Your answer
chat-answer-label = Your answer, for the agent
chat-skip-title = Skip this question
chat-skip-label = Why skip? A note for the agent (optional)
chat-cancel = Cancel

# Every chat app alike (the chat engine): $app is the app's name, $setup its setup command, $channel its name in the config
chat-app = { $channel ->
        [slack] Slack
        [discord] Discord
        [feishu] Feishu/Lark
        [telegram] Telegram
       *[wechat] WeChat
    }
chat-test = { $channel ->
        [telegram] Hark can reach this chat. Questions from your agents will appear here.
        [wechat] Hark can reach this WeChat. Questions from your agents will appear here.
       *[other] Hark can reach you here. Questions from your agents will appear here.
    }
chat-paired = Paired. Questions from your agents will arrive here, and only you can answer them.
chat-pairing-failed = Hark could not save the pairing. Check the computer running Hark, then try again.
chat-wrong-code = That code is not right. Get the current one in Hark's settings or with “{ $setup }”, then send { $pair } followed by it.
chat-expired-code = That code has expired. Get a new one in Hark's settings or with “{ $setup }”.
chat-stranger = Sorry, this { $app } bot answers only { $channel ->
        [telegram] its owner
       *[other] the person it is paired with
    }. If it is yours, send { $pair } followed by the code in Hark's settings or shown by “{ $setup }”.
chat-use-buttons = { $channel ->
        [wechat] This question takes only its options: reply with a number.
        [telegram] Tap a button under a question, or reply to its message to answer in your own words. To tell the agent something, write /tell followed by your message.
        [feishu] Answer with the buttons and the form on a question's card. To tell the agent something, write: tell followed by your message, or reply to the question.
       *[other] Use the buttons under a question to answer it. To tell the agent something, write: tell followed by your message, or reply to the question.
    }
chat-unpaired = { $channel ->
        [wechat] Hark is logged out of this WeChat: questions will not arrive here any more.
       *[other] You are no longer paired with Hark here: questions will not arrive here any more.
    }
chat-not-yours = This bot answers only its owner.
chat-private-only = Pair the bot in a private chat with it, not in a group.
chat-already-paired = This chat is already paired: questions from your agents arrive here.

chat-session-reply = { $channel ->
        [wechat] To answer it, send “/tell” and your words.
       *[other] Reply to this message to answer it.
    }
