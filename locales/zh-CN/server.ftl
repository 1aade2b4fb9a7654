### Messages only the daemon formats: kept out of the page's WebAssembly.

# The 401 page, the refused-form page and the exports (rendered by the daemon)
unauthorized-title = 请先配对这台设备
unauthorized-body = 这个 Hark 页面保存着某人的 AI 智能体提出的问题，只能在其本人的电脑上或已配对的设备上打开。
unauthorized-wrong = 这个配对链接有误或已失效：配对码已被更换。
unauthorized-too-many = 这台设备尝试了太多错误的配对码。请等一分钟再试。
unauthorized-how = 配对方法：在运行 Hark 的电脑上打开“设置”→“用手机回答”并扫描二维码，或在那台电脑上运行“hark url”。
bad-request-title = Hark 无法读取这个表单
export-title = 来自智能体的提问
export-asked = 提问于 { $when }
export-by = 来自 { $client }
export-messages-title = 给智能体的消息
export-message-waiting = 等待智能体接收
export-message-delivered = 已于 { $when } 送达
export-images = 附有 { $count } 张图片（图片数据在 JSON 导出中）

# Pushes to the phone (ntfy)
push-waiting = Hark：有一个问题在等你回答
push-open = 打开
push-open-on-computer = 请在电脑上打开 Hark 作答。
push-test = Hark 已能联系到这部手机。智能体的问题会显示在这里。
push-session = Hark：你的某个智能体已完成本轮或正在等你
push-reply = 回复

# How a question ended (pushes and chat messages)
outcome-answered = 已回答：{ $answer }
outcome-declined = 已跳过
outcome-timeout = 超时未回答
outcome-cancelled = 智能体已撤回该问题

# Chat apps: the walk's buttons, tell, reminders, and Telegram's reply prompts
chat-step = 第 { $step } 题，共 { $count } 题
chat-tell-sent = 已发给 { $agent }。它下次调用 Hark 时会收到。
chat-tell-empty = 请在 /tell 后面写上要说的话，例如：/tell 改用测试数据库
chat-tell-nobody = 还没有智能体提过问题，暂时没有可以转告的对象。
chat-tell-too-long = 这条消息太长了，请控制在 4000 字以内。
chat-tell-too-many = 给那个智能体的消息已经太多了；它下次联系 Hark 时会收到这些消息。
chat-tell-failed = Hark 没能保存这条消息，请重新发送。
chat-ticked = 已勾选：{ $options }
chat-send = 发送
chat-other = 其他…
chat-answer = 输入回答…
chat-skip = 跳过
chat-skip-now = 直接跳过，不留说明
chat-back = 返回
telegram-own-words-prompt = 请输入你的回答，并以回复这条消息的方式发送。
telegram-skip-note-prompt = 为什么跳过？回复一条给智能体的说明，或点“直接跳过，不留说明”。
telegram-reply-placeholder = 你的回答
chat-declined-note = 已跳过：{ $note }
chat-remind = { $count ->
   *[other] 还有 { $count } 个问题在等你回答：
}
chat-stale = { $channel ->
        [wechat] 这条回复写于问题发出之前，因此没有被采用。问题如下：
       *[other] 这个按钮已过时，请使用消息当前的按钮。
    }
chat-closed = 这个问题已经回答或已关闭。
chat-tick-first = { $channel ->
        [wechat] 请至少回复一个选项编号。
       *[other] 请先至少勾选一项，或使用“其他…”。
    }
chat-answer-sent = 回答已发送。
chat-skipped = 已跳过。
chat-too-long = 回答太长了，请发短一些。
chat-not-recorded = Hark 现在无法记录，请稍后再试。
chat-skip-word = 跳过
chat-text-only = Hark 只能读取文字：请回复编号或文字。
chat-nothing-waiting = 目前没有等待你回答的问题。
chat-no-such-option = 没有这个编号的选项。
chat-one-option = 这个问题只能选一个选项：请只回复一个编号。

# 微信（纯文字：回复编号、文字或跳过词）
wechat-recommended = 推荐
wechat-how-one = 回复所选选项的编号。
wechat-how-many = 回复所选选项的编号，可以多个，例如 1 3。
wechat-how-words = 也可以直接写下你自己的回答。
wechat-how-text = 直接回复你的回答。
wechat-how-skip = 回复“{ $skip }”可以跳过，后面可附上说明。
wechat-more-waiting = 之后还有 { $count } 个问题在等待。
wechat-via = { $place ->
    [page] 在 Hark 页面上
    [client] 在智能体自己的窗口中
    [rule] 按你保存的规则
   *[push] 通过推送通知
}
wechat-via-channel = 在 { $channel } 中
wechat-closed-via = { $name }：{ $outcome }（{ $place }）。
wechat-closed = { $name }：{ $outcome }。
wechat-answer-sent = 回答已发送：{ $answer }
wechat-skipped = 已跳过。
wechat-skipped-note = 已跳过：{ $note }
wechat-remind = 这个问题仍在等待你的回答。

# Claude Code 和 Codex 的权限请求，在 Hark 中询问（`hark hook`）
hook-permission = 允许 { $tool }？
# A command shown literally: what stands for long runs of blanks and empty lines, and a cut
literal-blanks = ⟨{ $count } 个空白⟩
literal-empty-lines = ⟨{ $count } 个空行⟩
literal-cut = ⟨还有 { $count } 个字符未显示⟩
hook-allow = 允许
hook-deny = 拒绝
# What Cursor shows the person when a call was denied in Hark
hook-denied = 已在 Hark 中拒绝。
# 其他 MCP 服务器的表单，在 Hark 中询问（Claude Code 的 Elicitation 钩子）
hook-elicitation-title = { $server }：{ $message }
hook-yes = 是
hook-no = 否
hook-leave-empty = 留空
hook-not-number = “{ $typed }”不是数字。
hook-not-integer = “{ $typed }”不是整数。
hook-too-small = 小于允许的最小值 { $min }。
hook-too-large = 大于允许的最大值 { $max }。
hook-too-short = 太短了：至少需要 { $min } 个字符。
hook-too-long = 太长了：最多 { $max } 个字符。
hook-too-few = 请至少勾选 { $min } 项。
hook-too-many = 最多只能勾选 { $max } 项。
hook-not-format = { $format ->
    [email] 这不是电子邮件地址。
    [uri] 这不是完整的网址（例如 https://example.com）。
    [date] 这不是日期：请写成 2026-12-31 的格式。
   *[date-time] 这不是日期和时间：请写成 2026-12-31T17:00:00Z 的格式。
}
# 等待批准的计划（Claude Code 的 ExitPlanMode）
hook-plan-header = 计划
hook-plan-ask = { $agent } 已制定计划，正在等待你同意后开始。
hook-plan-approve = 批准
hook-plan-keep = 继续规划
# “始终允许”：代理建议的规则，在保存之前先展示
hook-always-allow = 始终允许 { $rule }
hook-always-mode = 允许，并切换到 { $mode } 模式
hook-always-kept = 保存在 { $place }
hook-always-session = 直到本次会话结束
hook-always-allow-call = 始终允许
hook-always-allow-means = 这次允许，以后 { $agent } 发起完全相同的调用时，Hark 不再询问，直接允许。可在 Hark 的设置中撤销。
hook-always-deny-call = 始终拒绝
hook-always-deny-means = 这次拒绝，以后 { $agent } 发起完全相同的调用时，Hark 不再询问，直接拒绝。可在 Hark 的设置中撤销。

# Chat apps' reply windows (Slack's and Discord's modals, SPEC §17)
chat-pick = 选择选项
chat-answer-title = 你的回答
chat-answer-label = 你的回答（会交给智能体）
chat-skip-title = 跳过这个问题
chat-skip-label = 为什么跳过？给智能体的说明（可不填）
chat-cancel = 取消

# 所有聊天应用通用（聊天引擎）：$app 是应用名，$setup 是设置命令，$channel 是它在配置中的名字
chat-app = { $channel ->
        [slack] Slack
        [discord] Discord
        [feishu] 飞书/Lark
        [telegram] Telegram
       *[wechat] 微信
    }
chat-test = { $channel ->
        [telegram] Hark 已能联系到这个聊天。智能体的问题会出现在这里。
        [wechat] Hark 可以联系到这个微信。智能体的问题会出现在这里。
       *[other] Hark 已能在这里联系到你。智能体的问题会出现在这里。
    }
chat-paired = 配对成功。智能体的问题会发到这里，也只有你能回答。
chat-pairing-failed = Hark 无法保存配对。请检查运行 Hark 的电脑，然后重试。
chat-wrong-code = 配对码不对。请在 Hark 设置或“{ $setup }”中查看当前的配对码，再发送 { $pair } 加上它。
chat-expired-code = 这个配对码已过期。请在 Hark 设置或“{ $setup }”中获取新的配对码。
chat-stranger = 抱歉，这个{ $app }机器人只回应它的主人。如果这是你的机器人，请发送 { $pair } 加上 Hark 设置或“{ $setup }”中显示的配对码。
chat-use-buttons = { $channel ->
        [wechat] 这个问题只接受给出的选项：请回复编号。
        [telegram] 请点问题下方的按钮，或回复问题消息，用自己的话回答。想告诉智能体什么，请发送 /tell 加上你的话。
        [feishu] 请用问题卡片上的按钮和表单回答。想告诉智能体什么，请发送 tell 加上你的话，或直接回复那个问题。
       *[other] 请用问题下方的按钮回答。想告诉智能体什么，请发送 tell 加上你的话，或直接回复那个问题。
    }
chat-unpaired = { $channel ->
        [wechat] Hark 已退出这个微信的登录：问题不会再发送到这里。
       *[other] 你在这里已与 Hark 解除配对，问题不会再发到这里。
    }
chat-not-yours = 这个机器人只回应它的主人。
chat-private-only = 请在与机器人的私聊中配对，不要在群组里配对。
chat-already-paired = 这个聊天已经配对：智能体的问题会发到这里。

chat-session-reply = { $channel ->
        [wechat] 要回复它，请发送“/tell”加上你的话。
       *[other] 回复这条消息即可转告智能体。
    }
