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
export-images = 附有 { $count } 张图片（图片数据在 JSON 导出中）

# Pushes to the phone (ntfy)
push-waiting = Hark：有一个问题在等你回答
push-open = 打开
push-open-on-computer = 请在电脑上打开 Hark 作答。
push-test = Hark 已能联系到这部手机。智能体的问题会显示在这里。

# How a question ended (pushes and chat messages)
outcome-answered = 已回答：{ $answer }
outcome-declined = 已跳过
outcome-timeout = 超时未回答
outcome-cancelled = 智能体已撤回该问题

# The Telegram bot
telegram-step = 第 { $step } 题，共 { $count } 题
telegram-ticked = 已勾选：{ $options }
telegram-send = 发送
telegram-other = 其他…
telegram-answer = 输入回答…
telegram-skip = 跳过
telegram-skip-now = 直接跳过，不留说明
telegram-back = 返回
telegram-own-words-prompt = 请输入你的回答，并以回复这条消息的方式发送。
telegram-skip-note-prompt = 为什么跳过？回复一条给智能体的说明，或点“直接跳过，不留说明”。
telegram-reply-placeholder = 你的回答
telegram-declined-note = 已跳过：{ $note }
telegram-remind = { $count ->
   *[other] 还有 { $count } 个问题在等你回答：
}
telegram-test = Hark 已能联系到这个聊天。智能体的问题会显示在这里。
telegram-stranger = 抱歉，这个机器人只回应它的主人。如果这是你的机器人，请发送 /start 加上 Hark 设置或“hark telegram setup”中显示的配对码，来配对这个聊天。
telegram-start-needs-code = 要配对这个聊天，请发送 /start 加上 Hark 设置或“hark telegram setup”中显示的配对码。
telegram-private-only = 请在与机器人的私聊中配对，不要在群组里配对。
telegram-already-paired = 这个聊天已经配对：智能体的问题会发到这里。
telegram-pairing-failed = Hark 无法保存配对。请检查运行 Hark 的电脑，然后重试。
telegram-wrong-code = 配对码不对。请在 Hark 设置或“hark telegram setup”中查看当前的配对码，再发送 /start 加上它。
telegram-expired-code = 这个配对码已过期。请在 Hark 设置或“hark telegram setup”中获取新的配对码。
telegram-use-buttons = 请点问题下方的按钮，或回复问题消息，用自己的话回答。
telegram-not-yours = 这个机器人只回应它的主人。
telegram-stale = 这个按钮已过时，请使用消息当前的按钮。
telegram-closed = 这个问题已经回答或已关闭。
telegram-tick-first = 请先至少勾选一项，或使用“其他…”。
telegram-answer-sent = 回答已发送。
telegram-skipped = 已跳过。
telegram-too-long = 回答太长了，请发短一些。
telegram-not-recorded = Hark 现在无法记录，请稍后再试。
telegram-unpaired = 这个聊天已与 Hark 解除配对，问题不会再发到这里。
telegram-paired = 配对成功。智能体的问题会发到这个聊天，也只有这个聊天能回答。
