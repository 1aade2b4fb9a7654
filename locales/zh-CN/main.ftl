# Hark — 简体中文。界面上的每一段文字都来自这里，键与英文目录完全一致。

app-name = Hark
language-name = 简体中文
app-title = Hark — 来自智能体的提问
pending-badge = { $count } 个待回答

connection-live = 已连接：新问题会立即出现
connection-reconnecting = 正在重新连接…
connection-offline = 已离线：稍后自动重试
connection-connecting = 正在连接…

nav-inbox = 收件箱
skip-to-content = 跳到正文

home-waiting-heading = 等你回答
home-history-heading = 历史记录
home-empty-pending = 全部处理完了，没有等待中的问题。智能体的新问题会出现在这里。
home-empty-history = 还没有已回答的问题。
home-loading = 正在加载问题…
home-question-count = { $count } 个问题

status-pending = 等待中
status-answered = 已回答
status-declined = 已跳过
status-timeout = 已超时
status-cancelled = 已撤回

question-loading = 正在加载问题…
question-not-found = 这个问题不存在，或者已不再保留。
question-back = 返回收件箱
question-abandoned = 智能体已不再等待这个回答。你仍然可以回答：智能体再次询问时会收到这个回答。
question-via-client = 在智能体自己的窗口中
question-via-push = 通过推送通知的按钮
question-via-rule = 按你保存的规则
question-via-channel = 在 { $channel } 中
note-orphan = Hark 重启后智能体没有回来
note-late = 智能体已停止等待，且无人及时回答
note-chosen-by-timeout = 超时自动选择：在时限内无人回答，因此发送了推荐选项
question-option-recommended = 推荐
question-other-label = 其他（自己填写答案）
question-other-placeholder = 输入你的回答…
image-add = 添加图片
image-hint = 或将图片粘贴、拖放到这里
image-alt = 图片 { $n }
image-remove = 移除图片 { $n }
image-too-many = 每个回答最多附 { $max } 张图片。
image-too-large = { $name } 大小为 { $whole }.{ $tenths } MB，单张图片不能超过 { $max } MB。
image-wrong-type = { $name } 不是 PNG、JPEG、WebP 或 GIF 图片。
image-unreadable = 无法读取 { $name }。
answer-images = { $count } 张图片
question-submit = 发送回答
question-submitting = 正在发送…
question-reading-images = 正在读取图片…
question-submit-failed = 回答未被接受。{ $reason }
question-closed-answered = 这个问题已经回答了。
question-closed-declined = 这个问题已被跳过。
question-closed-timeout = 这个问题在有人回答之前就超时了。
question-closed-cancelled = 智能体撤回了这个问题。
question-your-answer = 回答：{ $answer }
question-note = 备注：{ $note }

not-found-title = 找不到页面
not-found-body = 这个地址下什么也没有。
question-skip = 跳过这个问题…
question-skip-note = 为什么跳过？（可不填，智能体会看到）
question-skip-confirm = 跳过
question-keys-hint = 快捷键：1–9 选择 · Enter 发送 · Esc 返回
question-needs-answer = 请选择一个选项或填写回答。
question-deadline = { $minutes } 分钟后超时
question-deadline-soon = 不到一分钟后超时
age-just-now = 刚刚
age-minutes = { $count } 分钟前
age-hours = { $count } 小时前
age-days = { $count } 天前
home-unknown-source = 其他智能体
tell-summary = 告诉智能体…
tell-help = 智能体下次从 Hark 拿到回答时会一并收到；在 Claude Code 中，它的下一步操作之后就会收到。
tell-placeholder = 例如：用测试数据库，不要用生产库。
tell-send = 发给智能体
tell-waiting = 等待智能体接收
tell-delivered = 已送达
tell-invalid = 请写一条不超过 4000 字的消息。
history-filter-label = 显示
history-filter-all = 全部
history-search-label = 搜索历史记录
history-search-placeholder = 搜索问题和回答…
history-no-match = 历史记录中没有匹配的内容。
question-show-raw = 查看原始 JSON
nav-settings = 设置
settings-heading = 设置
settings-timeout = 默认时限（秒）
settings-timeout-help = 问题等你回答多久后超时。0 表示一直等下去。智能体也可以自己设定时限。
settings-timeout-invalid = 时限必须是 0 到 2592000（30 天）之间的整数秒。
settings-remind = 提醒间隔（秒）
settings-remind-help = 仍在等待的问题每隔这么久再提醒一次。0 表示关闭提醒。
settings-remind-invalid = 提醒间隔必须是 0 到 86400（一天）之间的整数秒。
settings-typing-grace = 输入时保持问题开放（超过时限的秒数）
settings-typing-grace-help = 在你输入回答时，问题的时限会等你：它在你最后一次按键后一分钟才结束，最多超过原时限这么长时间。0 表示时限到了即使正在输入也会结束问题。
settings-typing-grace-invalid = 必须是 0 到 86400（一天）之间的整数秒。
settings-notification = 有新问题时显示桌面通知
settings-auto-open = 有新问题且没有打开的页面时，自动打开浏览器
settings-sound = 有新问题时播放提示音
settings-save = 保存设置
settings-saved = 已保存，所有打开的页面都会使用新设置。
settings-save-failed = 设置未能保存，请查看守护进程的日志。
attention-title = （{ $count }）有问题等你回答
attention-notification-title = { $count ->
    [one] 智能体有一个问题
   *[other] 智能体有 { $count } 个问题
}
attention-notification-open = 打开问题
attention-notification-open-all = 打开问题列表
attention-enable-notifications = 开启通知
settings-port = 端口
settings-port-help = 守护进程监听的端口，重启守护进程后生效；HARK_PORT 和 --port 的优先级更高。
settings-port-invalid = 端口必须是 1 到 65535 之间的整数。
settings-orphan = 放弃无人认领的问题（秒）
settings-orphan-help = 重启后，如果提问的智能体在这段时间内没有回来，问题会被撤回。
settings-orphan-invalid = 必须是 1 到 86400（一天）之间的整数秒。
settings-late = 智能体停止等待后仍保留问题的时间（秒）
settings-late-help = 智能体的调用被取消或其程序退出后，你仍可在这段时间内回答；智能体再次询问时会收到回答。设为 0 则立即撤回问题。
settings-late-invalid = 必须是 0 到 86400（一天）之间的整数秒。
settings-history-days = 历史记录保留（天）
settings-history-days-help = 早于这个天数的已结束问题会从历史记录中删除。
settings-history-days-invalid = 历史记录的保留天数必须在 1 到 3650 之间。
settings-history-max = 最多保留（个问题）
settings-history-max-help = 已结束的问题最多保留这么多个，优先保留最新的。
settings-history-max-invalid = 历史记录的数量必须是 1 到 1000000 之间的整数。

prefs-language = 语言
prefs-theme = 主题
prefs-apply = 应用
theme-system = 跟随系统
theme-light = 浅色
theme-dark = 深色
settings-appearance-heading = 语言和主题
settings-appearance-help = 每个浏览器分别保存自己的选择。桌面通知使用最近一次选择的语言。

error-invalid-answer = 回答与问题不符，请检查你的选择。
error-not-found = 这个问题已不存在。
error-not-pending = 这个问题已经结束了。
error-too-many = 等待中的问题太多了，请先回答或跳过一些。
error-too-many-messages = 给这个智能体的消息已经太多了；它下次联系 Hark 时会收到这些消息。
error-unavailable = 无法连接到 Hark，请稍后再试。
error-bad-request = Hark 无法读取这个请求：它不是 Hark 页面发送的格式。请返回收件箱再试一次。

# 日期和时间：$hour 和 $minute 都是两位数。
date-time = { $year }年{ $month }月{ $day }日 { $hour }:{ $minute }

settings-elicitation = 如果智能体自己的窗口能显示问题，也在那里提问（以最先给出的回答为准）
settings-lan = 允许同一网络中的其他设备（手机、平板）回答；重启守护进程后生效
phone-heading = 用手机回答
phone-scan = 用手机相机扫描这个二维码。手机需要和这台电脑在同一网络中，打开后即已配对。
phone-secret = 任何拿到这个链接的人都能查看并回答智能体的问题。要让所有已配对的设备失效，请运行“hark token --rotate”。
phone-no-address = Hark 已在网络上监听，但这台电脑没有手机可以访问的网络地址。
phone-off = 目前不能从其他设备回答：Hark 只在这台电脑上监听。要开启，请勾选上面的“允许同一网络中的其他设备回答”并重启 Hark，或用“hark serve --lan”启动。

history-older = 显示更早的问题
history-loading-older = 正在加载…

history-export = 下载全部历史记录：
history-export-markdown = Markdown 文档
history-export-json = JSON 数据

# 在其他地方提醒我（设置）
elsewhere-heading = 在其他地方提醒我
elsewhere-intro = Hark 可以把每个问题发到你的 Telegram 聊天，通过 ntfy 推送到你的手机，也可以发送到 Webhook（Slack、Discord、Home Assistant 等）。除非你开启某个渠道，否则任何内容都不会离开这台电脑。
elsewhere-ntfy = 通过 ntfy 把每个问题推送到我的手机
elsewhere-ntfy-server = ntfy 服务器
elsewhere-ntfy-topic = 主题
elsewhere-ntfy-topic-help = 在 ntfy 应用中订阅这个主题。知道主题的人都能读到推送，所以请选一个难以猜到的主题。
elsewhere-ntfy-token = 访问令牌（可选）
elsewhere-ntfy-token-help = 用于受保护的主题或自建服务器。保存在 secrets.json 中，之后不再显示；留空则继续使用已保存的令牌。
elsewhere-ntfy-token-set = 已保存访问令牌。
elsewhere-ntfy-token-forget = 删除已保存的访问令牌
elsewhere-public-url = 公开地址
elsewhere-public-url-help = 手机在任何地方都能访问这台电脑的地址，例如 Tailscale 名称（https://desk.tail1234.ts.net）。推送中的链接和回答按钮会使用它；未设置时使用局域网模式的地址。
elsewhere-no-links = 既没有设置公开地址，也没有开启局域网模式，因此推送只包含文字：请在这台电脑上回答。
elsewhere-content = 在推送中显示问题内容（关闭后只提示有问题在等待）
elsewhere-webhooks = Webhook
elsewhere-webhooks-help = 每行一个地址。每当有问题提出或结束时，都会用各自的密钥签名（X-Hark-Signature 头）后发送给它。
elsewhere-webhook-secret = { $url } 的密钥：
elsewhere-status = { $target }：已发送 { $sent } 条，失败 { $failures } 次
elsewhere-status-failing = { $target } 发送失败：{ $reason }
elsewhere-save = 保存渠道
elsewhere-test-ntfy = 发送测试推送
elsewhere-test-webhook = 向 Webhook 发送测试
elsewhere-test-sent = 测试已送达。
elsewhere-test-failed = 测试未能送达：{ $reason }
elsewhere-action-failed = 操作未成功：{ $reason }
settings-channels-invalid = 渠道设置无效：请检查地址和主题（字母、数字、- 和 _）。

# Telegram（设置）
elsewhere-telegram = Telegram 机器人
elsewhere-telegram-help = 把每个问题发到 Telegram 聊天，在那里点一下就能回答。先用 @BotFather（/newbot）创建机器人，把它的令牌粘贴到这里，再把配对码发给你的机器人。
elsewhere-telegram-enabled = 把问题发到 Telegram
elsewhere-telegram-token = 机器人令牌
elsewhere-telegram-token-help = 由 @BotFather 提供。保存在 secrets.json 中，之后不再显示；留空则沿用已保存的令牌，并生成新的配对码。
elsewhere-telegram-connect = 检查令牌并获取配对码
elsewhere-telegram-bot = 机器人：@{ $bot }
elsewhere-telegram-token-set = 已保存机器人令牌。
elsewhere-telegram-code = 要配对你的聊天，请在 10 分钟内把这条发给机器人：
elsewhere-telegram-open = 打开已填好配对码的聊天
elsewhere-telegram-paired = 已配对聊天：问题会发到那里，也只有那个聊天能回答。
elsewhere-telegram-not-paired = 还没有配对的聊天。
elsewhere-telegram-unpair = 解除聊天配对
elsewhere-telegram-forget = 删除机器人令牌并关闭机器人
elsewhere-test-telegram = 向 Telegram 发送测试消息
elsewhere-telegram-token-shape = 这看起来不是机器人令牌。@BotFather 给出的令牌形如 123456789:AAE…（数字、冒号，然后是字母和数字）。
elsewhere-telegram-wrong-token = Telegram 不认识这个令牌。请从 @BotFather（/mybots → API Token）重新复制。
elsewhere-telegram-no-token = 请先粘贴 @BotFather 提供的机器人令牌。
elsewhere-telegram-unreachable = 无法连接 Telegram 来检查令牌：{ $reason }
elsewhere-slack = Slack
elsewhere-slack-help = 把每个问题发到你在 Slack 的私信里，点一下就能回答。用 Hark README 中的清单创建一个 Slack 应用（开启 Socket Mode，无需任何连接进入这台电脑），安装到你的工作区，把它的两个令牌粘贴到这里，然后在私信里把配对码发给这个应用。
elsewhere-slack-enabled = 把问题发到 Slack
elsewhere-slack-bot-token = Bot User OAuth Token（xoxb-…）
elsewhere-slack-app-token = 应用级令牌（xapp-…，需有 connections:write）
elsewhere-slack-token-help = 保存在 secrets.json 中，之后不会再显示；两项都留空则保留已保存的令牌并获取新的配对码。
elsewhere-slack-connect = 检查令牌并获取配对码
elsewhere-slack-bot = 应用：@{ $bot }，工作区 { $team }
elsewhere-slack-token-set = 两个令牌都已保存。
elsewhere-slack-connected = 已连接到 Slack。
elsewhere-slack-not-connected = 目前未连接到 Slack，Hark 会继续尝试。
elsewhere-slack-code = 要完成配对，请在 10 分钟内通过 Slack 私信把这段发给应用：
elsewhere-slack-paired = 已有人配对：问题会发到他的私信，也只有他能回答。
elsewhere-slack-not-paired = 还没有人配对。
elsewhere-slack-unpair = 解除配对
elsewhere-slack-forget = 删除 Slack 令牌并关闭 Slack
elsewhere-test-slack = 向 Slack 发送测试消息
elsewhere-slack-bot-token-shape = 这看起来不像机器人令牌：Slack 的 Bot User OAuth Token 以 xoxb- 开头。
elsewhere-slack-app-token-shape = 这看起来不像应用级令牌：它以 xapp- 开头（Basic Information → App-Level Tokens）。
elsewhere-slack-wrong-bot-token = Slack 不接受这个机器人令牌。请先把应用安装到工作区，再从 OAuth & Permissions 重新复制。
elsewhere-slack-wrong-app-token = Slack 不接受这个应用级令牌。请创建一个带 connections:write 权限的令牌，并开启 Socket Mode。
elsewhere-slack-no-token = 请先粘贴两个令牌。
elsewhere-slack-unreachable = 无法连接 Slack 来检查令牌：{ $reason }
elsewhere-discord = Discord
elsewhere-discord-help = 把每个问题发到你在 Discord 的私信里，点一下就能回答。在 Discord 开发者门户创建一个应用，把它的机器人令牌复制到这里，把机器人加到你所在的服务器（这样它才能给你发消息），然后在私信里把配对码发给它。无需任何连接进入这台电脑。
elsewhere-discord-enabled = 把问题发到 Discord
elsewhere-discord-bot-token = 机器人令牌
elsewhere-discord-token-help = 来自开发者门户的 Bot 页面（Reset Token）。保存在 secrets.json 中，之后不会再显示；留空则保留已保存的令牌并获取新的配对码。
elsewhere-discord-connect = 检查令牌并获取配对码
elsewhere-discord-bot = 机器人：@{ $bot }
elsewhere-discord-token-set = 已保存机器人令牌。
elsewhere-discord-connected = 已连接到 Discord。
elsewhere-discord-not-connected = 目前未连接到 Discord，Hark 会继续尝试。
elsewhere-discord-code = 要完成配对，请在 10 分钟内通过 Discord 私信把这段发给机器人：
elsewhere-discord-paired = 已有人配对：问题会发到他的私信，也只有他能回答。
elsewhere-discord-not-paired = 还没有人配对。
elsewhere-discord-unpair = 解除配对
elsewhere-discord-forget = 删除 Discord 令牌并关闭 Discord
elsewhere-test-discord = 向 Discord 发送测试消息
elsewhere-discord-token-shape = 这看起来不像机器人令牌：开发者门户给出的令牌由三段组成，中间用点分隔。
elsewhere-discord-wrong-token = Discord 不接受这个令牌。请在开发者门户的 Bot 页面重置，并复制新的令牌。
elsewhere-discord-no-token = 请先粘贴机器人令牌。
elsewhere-discord-unreachable = 无法连接 Discord 来检查令牌：{ $reason }
elsewhere-feishu = 飞书 / Lark
elsewhere-feishu-help = 把每个问题以卡片形式发到你与机器人的飞书或 Lark 会话里，点一下就能回答。在开发者后台创建企业自建应用，添加机器人能力，选择“使用长连接接收事件”（无需让外部访问这台电脑），发布版本，把 App ID 和 App Secret 粘贴到这里，然后把配对码发给机器人。
elsewhere-feishu-enabled = 把问题发到飞书 / Lark
elsewhere-feishu-platform = 应用所在平台
elsewhere-feishu-platform-feishu = 飞书（中国大陆，open.feishu.cn）
elsewhere-feishu-platform-lark = Lark（海外，open.larksuite.com）
elsewhere-feishu-platform-other = 其他地址：{ $address }
elsewhere-feishu-app-id = App ID（cli_…）
elsewhere-feishu-app-secret = App Secret
elsewhere-feishu-secret-help = 两者都在“凭证与基础信息”页面。保存在 secrets.json 中，之后不会再显示；两项都留空则保留已保存的凭证并获取新的配对码。
elsewhere-feishu-connect = 检查应用并获取配对码
elsewhere-feishu-bot = 应用：{ $bot }
elsewhere-feishu-token-set = 已保存 App ID 和 App Secret。
elsewhere-feishu-connected = 已连接到飞书 / Lark。
elsewhere-feishu-not-connected = 目前未连接到飞书 / Lark，Hark 会继续尝试。
elsewhere-feishu-code = 要完成配对，请在 10 分钟内私聊机器人发送：
elsewhere-feishu-paired = 已有人配对：问题会发到他与机器人的会话，也只有他能回答。
elsewhere-feishu-not-paired = 还没有人配对。
elsewhere-feishu-unpair = 解除配对
elsewhere-feishu-forget = 删除飞书 / Lark 应用并关闭
elsewhere-test-feishu = 向飞书 / Lark 发送测试消息
elsewhere-feishu-app-id-shape = 这看起来不像 App ID：它以 cli_ 开头（凭证与基础信息）。
elsewhere-feishu-wrong-app-id = 飞书 / Lark 不认识这个 App ID。请重新复制，并确认应用在上面选择的平台上。
elsewhere-feishu-wrong-secret = App Secret 与这个 App ID 不匹配。请从“凭证与基础信息”重新复制。
elsewhere-feishu-no-bot = 这个应用还没有机器人。请添加机器人能力并发布版本，然后重试。
elsewhere-feishu-no-credentials = 请先粘贴 App ID 和 App Secret。
elsewhere-feishu-unreachable = 无法连接飞书 / Lark 来检查应用：{ $reason }

# 微信（设置）
elsewhere-wechat = 微信
elsewhere-wechat-help = 把每个问题以文字发到你的微信，并在微信里回答：回复编号、你自己的话，或“跳过”。用微信扫码登录；只有扫码的账号可以回答。
elsewhere-wechat-enabled = 把问题发送到微信
elsewhere-wechat-connect = 用微信登录
elsewhere-wechat-scan = 用微信扫描此二维码（发现 → 扫一扫），然后在手机上确认。
elsewhere-wechat-scanned = 已扫码：请在手机上确认登录。
elsewhere-wechat-needs-code = 微信在你的手机上显示了一个数字：请在这里输入。
elsewhere-wechat-wrong-code = 数字不匹配：请输入微信现在显示的数字。
elsewhere-wechat-code = 手机上显示的数字
elsewhere-wechat-send-code = 提交数字
elsewhere-wechat-check = 我已扫码：再检查一次
elsewhere-wechat-confirmed = 已登录。
elsewhere-wechat-expired = 二维码在确认登录前已过期。请重新登录以获取新的二维码。
elsewhere-wechat-failed = 登录失败：{ $reason }
elsewhere-wechat-paired = 已登录：问题会发到扫码的微信，且只有它可以回答。
elsewhere-wechat-not-paired = 未登录。
elsewhere-wechat-session-ended = 微信结束了这次登录。请重新登录以继续接收问题。
elsewhere-wechat-unpair = 退出微信登录
elsewhere-wechat-unreachable = 无法向微信获取登录二维码：{ $reason }
elsewhere-wechat-code-shape = 请输入微信在手机上显示的数字。
elsewhere-test-wechat = 向微信发送测试消息

# 快捷回复
rules-heading = 记住的决定
rules-help = 你以“始终允许”或“始终拒绝”回答过的权限请求。同一个智能体再次请求完全相同的调用时，Hark 会直接回答，不再询问你，历史记录中也会注明。
rules-none = 还没有记住的决定。
rules-allowed = 始终允许
rules-denied = 始终拒绝
rules-what = { $agent }：{ $tool }
rules-take-back = 撤销
presets-heading = 快捷回复
presets-help = 常用的回复，每行一条，按你想要的顺序排列。在问题页面，点输入框下方的按钮，或在输入时按 Alt+1 到 Alt+9，即可插入。要添加、修改、调整顺序或删除，直接在这里编辑各行。
presets-placeholder = 看起来不错，继续吧。
presets-save = 保存快捷回复
presets-invalid = 快捷回复最多 50 条，每条最多 500 个字符。
presets-label = 快捷回复

## Agent sessions (SPEC §20): the Agents page and the notices of an agent that finished or waits.
session-state = { $state ->
        [working] 工作中
        [asking] 正在 Hark 中向你提问
        [waiting] 正在它自己的窗口中等你
        [finished] 已完成本轮
       *[ended] 已结束
    }
session-notice-finished = { $agent } 已完成本轮工作
session-notice-waiting = { $agent } 正在它自己的窗口中等你
session-notice-open = 打开智能体列表
nav-agents = 智能体
agents-title = 你的智能体
agents-loading = 正在加载智能体…
agents-empty = 还没有智能体告诉 Hark 它在做什么。为你的智能体加上 Hark 的钩子（见 Hark 指南中的“智能体”），它们就会显示在这里：工作中、等你回复或已完成。
agents-questions = 等你回答的问题
settings-continue-wait = 已完成的智能体等你回复的时间（秒）
settings-continue-wait-help = Claude Code、Codex、Gemini CLI 或 Cursor 完成本轮后，它的钩子会等你这么久；收到你的消息就让它继续工作。0 表示不等待；已在等候的消息仍会让它继续。
settings-continue-wait-invalid = 必须是 0 到 86400（一天）之间的整数秒。
settings-session-idle = 智能体安静多久后不再显示（秒）
settings-session-idle-help = 这么久没有消息的智能体会从智能体页面消失。
settings-session-idle-invalid = 必须是 60 到 604800（一周）之间的整数秒。
settings-notify-waiting = 智能体在它自己的窗口中等我时通知我
settings-notify-finished = 智能体完成本轮时通知我
