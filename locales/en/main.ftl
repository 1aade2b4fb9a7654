# Hark — English. Every string a person sees comes from here; the other four catalogues
# (zh-CN, ko, ja, ru) carry exactly the same keys. Messages only the daemon formats (pushes,
# the Telegram bot, the 401 page, exports) are in server.ftl, which the page never loads.

app-name = Hark
language-name = English
app-title = Hark — questions from your agents
pending-badge = { $count ->
    [one] { $count } waiting
   *[other] { $count } waiting
}

connection-live = Live: new questions appear at once
connection-reconnecting = Reconnecting…
connection-offline = Offline: trying again soon
connection-connecting = Connecting…

nav-inbox = Inbox
skip-to-content = Skip to content

home-waiting-heading = Waiting for you
home-history-heading = History
home-empty-pending = All caught up: nothing is waiting. New questions from your agents appear here.
home-empty-history = No answered questions yet.
home-loading = Loading questions…
home-question-count = { $count ->
    [one] { $count } question
   *[other] { $count } questions
}

status-pending = Waiting
status-answered = Answered
status-declined = Skipped
status-timeout = Timed out
status-cancelled = Withdrawn

question-loading = Loading the question…
question-not-found = This question does not exist, or it is no longer kept.
question-back = Back to the inbox
question-abandoned = The agent stopped waiting for this answer. You can still answer: the answer is kept for it when it asks again.
question-via-client = in the agent's own window
question-via-push = with a push's button
question-via-rule = by a rule you kept
question-via-channel = in { $channel }
note-orphan = the agent did not come back after Hark restarted
note-late = the agent stopped waiting, and nobody answered in time
note-chosen-by-timeout = chosen by timeout: nobody answered before the time limit, so the recommended option was sent
question-option-recommended = Recommended
question-other-label = Other (type your own answer)
question-other-placeholder = Type your answer…
image-add = Add image
image-hint = or paste or drop images here
image-alt = Image { $n }
image-remove = Remove image { $n }
image-too-many = At most { $max } images per answer.
image-too-large = { $name } is { $whole }.{ $tenths } MB; an image can be at most { $max } MB.
image-wrong-type = { $name } is not a PNG, JPEG, WebP or GIF image.
image-unreadable = { $name } could not be read.
answer-images = { $count ->
    [one] one image
   *[other] { $count } images
}
question-submit = Send answer
question-submitting = Sending…
question-reading-images = Reading images…
question-submit-failed = The answer was not accepted. { $reason }
question-closed-answered = This question has been answered.
question-closed-declined = This question was skipped.
question-closed-timeout = This question timed out before anyone answered.
question-closed-cancelled = The agent withdrew this question.
question-your-answer = Answer: { $answer }
question-note = Note: { $note }

not-found-title = Page not found
not-found-body = There is nothing at this address.
question-skip = Skip this question…
question-skip-note = Why are you skipping it? (optional, the agent sees this)
question-skip-confirm = Skip
question-keys-hint = Keys: 1–9 pick · Enter sends · Esc goes back
question-needs-answer = Pick an option or write an answer.
question-deadline = { $minutes ->
    [one] Times out in { $minutes } minute
   *[other] Times out in { $minutes } minutes
}
question-deadline-soon = Times out in less than a minute
age-just-now = just now
age-minutes = { $count ->
    [one] { $count } min ago
   *[other] { $count } min ago
}
age-hours = { $count ->
    [one] { $count } h ago
   *[other] { $count } h ago
}
age-days = { $count ->
    [one] { $count } day ago
   *[other] { $count } days ago
}
home-unknown-source = Other agents
tell-summary = Tell the agent…
tell-help = It reaches the agent with the next answer it gets from Hark, or after its next step in Claude Code.
tell-placeholder = Such as: use the staging database, not production.
tell-send = Send to the agent
tell-waiting = Waiting for the agent
tell-delivered = Delivered
tell-invalid = Write a message of up to 4000 characters.
history-filter-label = Show
history-filter-all = All
history-search-label = Search the history
history-search-placeholder = Search questions and answers…
history-no-match = Nothing in the history matches.
question-show-raw = Show the original JSON
nav-settings = Settings
settings-heading = Settings
settings-timeout = Default time limit (seconds)
settings-timeout-help = How long a question waits for you before it times out. 0 waits as long as it takes. An agent may set its own limit.
settings-timeout-invalid = The time limit must be a whole number of seconds from 0 to 2592000 (30 days).
settings-remind = Reminder interval (seconds)
settings-remind-help = A question still waiting is announced again this often. 0 turns reminders off.
settings-remind-invalid = The reminder interval must be a whole number of seconds from 0 to 86400 (one day).
settings-typing-grace = Keep a question open while you type (seconds past its time limit)
settings-typing-grace-help = While you type an answer, a question's time limit waits for you: it ends a minute after your last keystroke, at most this long past the limit. 0 lets the limit end a question while you type.
settings-typing-grace-invalid = This must be a whole number of seconds from 0 to 86400 (one day).
settings-notification = Desktop notifications when a question arrives
settings-auto-open = Open the browser when a question arrives and no page is open
settings-sound = Play a short sound when a question arrives
settings-save = Save settings
settings-saved = Saved. Every open page uses the new settings.
settings-save-failed = The settings could not be saved; see the daemon's log.
attention-title = { $count ->
    [one] ({ $count }) A question is waiting
   *[other] ({ $count }) Questions are waiting
}
attention-notification-title = { $count ->
    [one] Your agent has a question
   *[other] Your agents have { $count } questions
}
attention-notification-open = Open the question
attention-notification-open-all = Open the questions
attention-enable-notifications = Turn on notifications
settings-port = Port
settings-port-help = The port the daemon listens on. Takes effect when the daemon restarts; HARK_PORT and --port override it.
settings-port-invalid = The port must be a whole number from 1 to 65535.
settings-orphan = Forget abandoned questions after (seconds)
settings-orphan-help = After a restart, a question whose agent does not come back within this time is withdrawn.
settings-orphan-invalid = This must be a whole number of seconds from 1 to 86400 (one day).
settings-late = Keep a question open after its agent stops waiting (seconds)
settings-late-help = When an agent's call is cancelled or its program goes away, you still have this long to answer; the agent collects the answer when it asks again. 0 withdraws the question at once.
settings-late-invalid = This must be a whole number of seconds from 0 to 86400 (one day).
settings-history-days = Keep history for (days)
settings-history-days-help = Closed questions older than this are removed from the history.
settings-history-days-invalid = The history must be kept from 1 to 3650 days.
settings-history-max = Keep at most (questions)
settings-history-max-help = At most this many closed questions are kept, newest first.
settings-history-max-invalid = The history size must be a whole number from 1 to 1000000.

prefs-language = Language
prefs-theme = Theme
prefs-apply = Apply
theme-system = System
theme-light = Light
theme-dark = Dark
settings-appearance-heading = Language and theme
settings-appearance-help = Each browser keeps its own choice. Desktop notifications use the language picked last.

error-invalid-answer = It does not fit the question; check your choices.
error-not-found = This question no longer exists.
error-not-pending = This question was already closed.
error-too-many = Too many questions are waiting; answer or skip some first.
error-too-many-messages = Too many messages are already waiting for this agent; it collects them the next time it reaches Hark.
error-unavailable = Hark could not be reached; try again in a moment.
error-bad-request = Hark could not read this request: it is not what Hark's own page sends. Go back to the inbox and try again.

# A date and time: $month is 1–12, $hour and $minute have two digits.
date-time = { $month ->
    [1] Jan
    [2] Feb
    [3] Mar
    [4] Apr
    [5] May
    [6] Jun
    [7] Jul
    [8] Aug
    [9] Sep
    [10] Oct
    [11] Nov
   *[12] Dec
} { $day }, { $year }, { $hour }:{ $minute }

settings-elicitation = Also ask in the agent's own window when it can show questions (the first answer, there or here, wins)
settings-lan = Allow answering from other devices on this network (phones, tablets); takes effect when the daemon restarts
phone-heading = Answer from your phone
phone-scan = Scan this code with your phone's camera. The phone must be on the same network as this computer; it opens Hark already paired.
phone-secret = Anyone with this link can read and answer your agents' questions. To cut every paired device off, run “hark token --rotate”.
phone-no-address = Hark listens on the network, but this computer has no network address a phone could use.
phone-off = Answering from other devices is off: Hark only listens on this computer. To turn it on, tick “Allow answering from other devices” above and restart Hark, or start it with “hark serve --lan”.

history-older = Show older questions
history-loading-older = Loading…

history-export = Download the whole history:
history-export-markdown = Markdown
history-export-json = JSON

# Notify me elsewhere (settings)
elsewhere-heading = Notify me elsewhere
elsewhere-intro = Hark can send each question to your Telegram chat, push it to your phone with ntfy, and post it to webhooks (Slack, Discord, Home Assistant…). Nothing leaves this computer unless you turn a channel on.
elsewhere-ntfy = Push each question to my phone with ntfy
elsewhere-ntfy-server = ntfy server
elsewhere-ntfy-topic = Topic
elsewhere-ntfy-topic-help = Subscribe to this topic in the ntfy app. Anyone who knows it can read the pushes, so pick one that is hard to guess.
elsewhere-ntfy-token = Access token (optional)
elsewhere-ntfy-token-help = For a protected topic or your own server. Kept in secrets.json and never shown again; leave empty to keep the saved one.
elsewhere-ntfy-token-set = An access token is saved.
elsewhere-ntfy-token-forget = Remove the saved access token
elsewhere-public-url = Public address
elsewhere-public-url-help = Where your phone reaches this computer from anywhere, such as a Tailscale name (https://desk.tail1234.ts.net). Links and answer buttons in pushes use it; without it, LAN mode's address is used.
elsewhere-no-links = Neither a public address nor LAN mode is set, so pushes carry only the text: answer on this computer.
elsewhere-content = Show the question in pushes (off: they only say that a question is waiting)
elsewhere-webhooks = Webhooks
elsewhere-webhooks-help = One address per line. Each receives the question when it is asked and when it closes, signed with its own secret (header X-Hark-Signature).
elsewhere-webhook-secret = Secret for { $url }:
elsewhere-status = { $target }: { $sent } sent, { $failures } failed attempts
elsewhere-status-failing = { $target } is failing: { $reason }
elsewhere-save = Save channels
elsewhere-test-ntfy = Send a test push
elsewhere-test-webhook = Send a test to the webhooks
elsewhere-test-sent = The test got through.
elsewhere-test-failed = The test did not get through: { $reason }
elsewhere-action-failed = That did not work: { $reason }
settings-channels-invalid = A channel setting is not valid: check the addresses and the topic (letters, digits, - and _).

# Telegram (settings)
elsewhere-telegram = Telegram bot
elsewhere-telegram-help = Send each question to a Telegram chat and answer it there with a tap. Create a bot with @BotFather (/newbot), paste its token here, then send the pairing code to your bot.
elsewhere-telegram-enabled = Send questions to Telegram
elsewhere-telegram-token = Bot token
elsewhere-telegram-token-help = From @BotFather. Kept in secrets.json and never shown again; leave empty to keep the saved one and get a new pairing code.
elsewhere-telegram-connect = Check the token and get a pairing code
elsewhere-telegram-bot = Bot: @{ $bot }
elsewhere-telegram-token-set = A bot token is saved.
elsewhere-telegram-code = To pair your chat, send this to the bot within 10 minutes:
elsewhere-telegram-open = Open the chat with the code filled in
elsewhere-telegram-paired = A chat is paired: questions go there, and only that chat can answer.
elsewhere-telegram-not-paired = No chat is paired yet.
elsewhere-telegram-unpair = Unpair the chat
elsewhere-telegram-forget = Remove the bot token and turn the bot off
elsewhere-test-telegram = Send a test message to Telegram
elsewhere-telegram-token-shape = This does not look like a bot token. BotFather gives one such as 123456789:AAE… (digits, a colon, then letters and digits).
elsewhere-telegram-wrong-token = Telegram does not know this token. Copy it again from @BotFather (/mybots → API Token).
elsewhere-telegram-no-token = Paste the bot token from @BotFather first.
elsewhere-telegram-unreachable = Telegram could not be reached to check the token: { $reason }
elsewhere-slack = Slack
elsewhere-slack-help = Send each question to your direct messages in Slack and answer it there with a tap. Create a Slack app from the manifest in Hark's README (Socket Mode on: nothing has to reach this computer), install it to your workspace, paste its two tokens here, then send the pairing code to the app in a direct message.
elsewhere-slack-enabled = Send questions to Slack
elsewhere-slack-bot-token = Bot User OAuth Token (xoxb-…)
elsewhere-slack-app-token = App-level token (xapp-…, with connections:write)
elsewhere-slack-token-help = Kept in secrets.json and never shown again; leave both empty to keep the saved ones and get a new pairing code.
elsewhere-slack-connect = Check the tokens and get a pairing code
elsewhere-slack-bot = App: @{ $bot } in { $team }
elsewhere-slack-token-set = Both tokens are saved.
elsewhere-slack-connected = Connected to Slack.
elsewhere-slack-not-connected = Not connected to Slack right now; Hark keeps trying.
elsewhere-slack-code = To pair, send this to the app in a direct message in Slack within 10 minutes:
elsewhere-slack-paired = A person is paired: questions go to their direct messages, and only they can answer.
elsewhere-slack-not-paired = Nobody is paired yet.
elsewhere-slack-unpair = Unpair
elsewhere-slack-forget = Remove the Slack tokens and turn Slack off
elsewhere-test-slack = Send a test message to Slack
elsewhere-slack-bot-token-shape = This does not look like a bot token: Slack's Bot User OAuth Token starts with xoxb-.
elsewhere-slack-app-token-shape = This does not look like an app-level token: it starts with xapp- (Basic Information → App-Level Tokens).
elsewhere-slack-wrong-bot-token = Slack does not take this bot token. Copy it again from OAuth & Permissions, after installing the app to your workspace.
elsewhere-slack-wrong-app-token = Slack does not take this app-level token. Make one with the connections:write scope, and turn Socket Mode on.
elsewhere-slack-no-token = Paste both tokens first.
elsewhere-slack-unreachable = Slack could not be reached to check the tokens: { $reason }
elsewhere-discord = Discord
elsewhere-discord-help = Send each question to your direct messages in Discord and answer it there with a click. Create an application in Discord's Developer Portal, copy its bot token here, add the bot to a server you are in (so it may write to you), then send it the pairing code in a direct message. Nothing has to reach this computer.
elsewhere-discord-enabled = Send questions to Discord
elsewhere-discord-bot-token = Bot token
elsewhere-discord-token-help = From the Developer Portal's Bot page (Reset Token). Kept in secrets.json and never shown again; leave empty to keep the saved one and get a new pairing code.
elsewhere-discord-connect = Check the token and get a pairing code
elsewhere-discord-bot = Bot: @{ $bot }
elsewhere-discord-token-set = A bot token is saved.
elsewhere-discord-connected = Connected to Discord.
elsewhere-discord-not-connected = Not connected to Discord right now; Hark keeps trying.
elsewhere-discord-code = To pair, send this to the bot in a direct message in Discord within 10 minutes:
elsewhere-discord-paired = A person is paired: questions go to their direct messages, and only they can answer.
elsewhere-discord-not-paired = Nobody is paired yet.
elsewhere-discord-unpair = Unpair
elsewhere-discord-forget = Remove the Discord token and turn Discord off
elsewhere-test-discord = Send a test message to Discord
elsewhere-discord-token-shape = This does not look like a bot token: the Developer Portal gives one of three parts separated by dots.
elsewhere-discord-wrong-token = Discord does not take this token. Reset it on the Developer Portal's Bot page and copy the new one.
elsewhere-discord-no-token = Paste the bot token first.
elsewhere-discord-unreachable = Discord could not be reached to check the token: { $reason }
elsewhere-feishu = Feishu / Lark
elsewhere-feishu-help = Send each question to the bot's chat in Feishu or Lark as a card and answer it there with a tap. Create a self-built app in the developer console, add the Bot feature, choose "receive events through a long connection" (nothing has to reach this computer), publish a version, paste the App ID and App Secret here, then send the pairing code to the bot.
elsewhere-feishu-enabled = Send questions to Feishu / Lark
elsewhere-feishu-platform = Where the app lives
elsewhere-feishu-platform-feishu = Feishu (China, open.feishu.cn)
elsewhere-feishu-platform-lark = Lark (outside China, open.larksuite.com)
elsewhere-feishu-platform-other = Another address: { $address }
elsewhere-feishu-app-id = App ID (cli_…)
elsewhere-feishu-app-secret = App Secret
elsewhere-feishu-secret-help = Both from Credentials & Basic Info. Kept in secrets.json and never shown again; leave both empty to keep the saved ones and get a new pairing code.
elsewhere-feishu-connect = Check the app and get a pairing code
elsewhere-feishu-bot = App: { $bot }
elsewhere-feishu-token-set = The App ID and App Secret are saved.
elsewhere-feishu-connected = Connected to Feishu / Lark.
elsewhere-feishu-not-connected = Not connected to Feishu / Lark right now; Hark keeps trying.
elsewhere-feishu-code = To pair, send this to the bot in a direct message within 10 minutes:
elsewhere-feishu-paired = A person is paired: questions go to their chat with the bot, and only they can answer.
elsewhere-feishu-not-paired = Nobody is paired yet.
elsewhere-feishu-unpair = Unpair
elsewhere-feishu-forget = Remove the Feishu / Lark app and turn it off
elsewhere-test-feishu = Send a test message to Feishu / Lark
elsewhere-feishu-app-id-shape = This does not look like an App ID: it starts with cli_ (Credentials & Basic Info).
elsewhere-feishu-wrong-app-id = Feishu / Lark does not know this App ID. Copy it again, and check that the app is on the platform chosen above.
elsewhere-feishu-wrong-secret = The App Secret does not match this App ID. Copy it again from Credentials & Basic Info.
elsewhere-feishu-no-bot = The app has no bot yet. Add the Bot feature, publish a version, then try again.
elsewhere-feishu-no-credentials = Paste the App ID and the App Secret first.
elsewhere-feishu-unreachable = Feishu / Lark could not be reached to check the app: { $reason }

# WeChat (settings)
elsewhere-wechat = WeChat
elsewhere-wechat-help = Send each question to your WeChat as text and answer it there: reply with a number, your own words, or “skip”. Log in by scanning a code with WeChat; only the account that scans can answer.
elsewhere-wechat-enabled = Send questions to WeChat
elsewhere-wechat-connect = Log in with WeChat
elsewhere-wechat-scan = Scan this code with WeChat (Discover → Scan), then confirm on your phone.
elsewhere-wechat-scanned = Scanned: confirm the login on your phone.
elsewhere-wechat-needs-code = WeChat shows a number on your phone: type it here.
elsewhere-wechat-wrong-code = That number did not match: type the one WeChat shows now.
elsewhere-wechat-code = Number from your phone
elsewhere-wechat-send-code = Send the number
elsewhere-wechat-check = I have scanned it: check again
elsewhere-wechat-confirmed = Logged in.
elsewhere-wechat-expired = The code expired before the login was confirmed. Log in again for a new one.
elsewhere-wechat-failed = The login failed: { $reason }
elsewhere-wechat-paired = Logged in: questions go to the WeChat that scanned, and only it can answer.
elsewhere-wechat-not-paired = Not logged in.
elsewhere-wechat-session-ended = WeChat ended the login. Log in again to keep receiving questions.
elsewhere-wechat-unpair = Log out of WeChat
elsewhere-wechat-unreachable = WeChat could not be asked for a login code: { $reason }
elsewhere-wechat-code-shape = Type the digits WeChat shows on your phone.
elsewhere-test-wechat = Send a test message to WeChat

# Quick replies
rules-heading = Remembered decisions
rules-help = Permission prompts you answered with “Always allow” or “Always deny”. When the same agent asks for the same call again, Hark answers it at once without asking you, and the history says so.
rules-none = No decisions remembered yet.
rules-allowed = Always allowed
rules-denied = Always denied
rules-what = { $agent }: { $tool }
rules-take-back = Take back
presets-heading = Quick replies
presets-help = Texts you often type, one per line, in the order you want them. On a question, tap one under a text box, or press Alt+1 to Alt+9 while typing, to insert it. Edit, move or delete lines here to change them.
presets-placeholder = Looks good, go ahead.
presets-save = Save quick replies
presets-invalid = Quick replies: at most 50, each at most 500 characters.
presets-label = Quick replies

## Agent sessions (SPEC §20): the Agents page and the notices of an agent that finished or waits.
session-state = { $state ->
        [working] Working
        [asking] Asking you in Hark
        [waiting] Waiting for you in its own window
        [finished] Finished its turn
       *[ended] Ended
    }
session-notice-finished = { $agent } finished its turn
session-notice-waiting = { $agent } is waiting for you in its own window
session-notice-open = Open the agents
nav-agents = Agents
agents-title = Your agents
agents-loading = Loading agents…
agents-empty = No agent has told Hark what it is doing yet. Add Hark's hooks to your agents (see “Agents” in Hark's guide) and each one shows here: working, waiting for you, or finished.
agents-questions = Waiting for your answer
settings-continue-wait = Hold a finished agent for your reply (seconds)
settings-continue-wait-help = When Claude Code, Codex, Gemini CLI or Cursor finishes its turn, its hook waits this long for a message from you, which then continues it. 0 never holds it; a message already waiting still continues it.
settings-continue-wait-invalid = This must be a whole number of seconds from 0 to 86400 (one day).
settings-session-idle = Forget an agent that went quiet after (seconds)
settings-session-idle-help = An agent not heard from for this long leaves the Agents page.
settings-session-idle-invalid = This must be a whole number of seconds from 60 to 604800 (one week).
settings-notify-waiting = Tell me when an agent waits for me in its own window
settings-notify-finished = Tell me when an agent finishes its turn
