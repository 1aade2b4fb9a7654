### Messages only the daemon formats: kept out of the page's WebAssembly.

# The 401 page, the refused-form page and the exports (rendered by the daemon)
unauthorized-title = 先にこのデバイスをペアリングしてください
unauthorized-body = この Hark のページには誰かの AI エージェントからの質問が含まれているため、その人のコンピューターか、ペアリング済みのデバイスでしか開けません。
unauthorized-wrong = このペアリング用リンクは正しくないか、すでに無効です。コードが変更されました。
unauthorized-too-many = このデバイスから誤ったコードが多すぎました。1 分待ってからもう一度お試しください。
unauthorized-how = ペアリングするには、Hark を実行しているコンピューターで「設定」→「スマートフォンで回答」を開いて QR コードを読み取るか、そのコンピューターで「hark url」を実行してください。
bad-request-title = Hark はこのフォームを読み取れませんでした
export-title = エージェントからの質問
export-asked = 質問日時：{ $when }
export-by = 送信元：{ $client }
export-messages-title = エージェントへのメッセージ
export-message-waiting = エージェントの受信待ち
export-message-delivered = { $when } に届きました
export-images = 画像 { $count } 枚を添付（画像データは JSON エクスポートに含まれます）

# Pushes to the phone (ntfy)
push-waiting = Hark: 質問が届いています
push-open = 開く
push-open-on-computer = 回答するには、コンピューターで Hark を開いてください。
push-test = Hark からこのスマートフォンに届きました。エージェントからの質問はここに表示されます。
push-session = Hark: エージェントがターンを終えたか、あなたを待っています
push-reply = 返信

# How a question ended (pushes and chat messages)
outcome-answered = 回答済み: { $answer }
outcome-declined = スキップしました
outcome-timeout = 回答がないまま時間切れになりました
outcome-cancelled = エージェントが取り下げました

# Chat apps: the walk's buttons, tell, reminders, and Telegram's reply prompts
chat-step = 質問 { $step }/{ $count }
chat-tell-sent = { $agent } に送りました。エージェントが次に Hark を呼び出したときに届きます。
chat-tell-empty = /tell の後にメッセージを書いてください。例：/tell ステージングのデータベースを使って
chat-tell-nobody = まだどのエージェントも質問していないため、伝える相手がいません。
chat-tell-too-long = メッセージが長すぎます。4000 文字以内にしてください。
chat-tell-too-many = そのエージェント宛てのメッセージがすでに多すぎます。エージェントが次に Hark に来たときに受け取ります。
chat-tell-failed = Hark はこのメッセージを保存できませんでした。もう一度送ってください。
chat-ticked = 選択中: { $options }
chat-send = 送信
chat-other = その他…
chat-answer = 回答を入力…
chat-skip = スキップ
chat-skip-now = 理由なしでスキップ
chat-back = 戻る
telegram-own-words-prompt = 回答を入力し、このメッセージへの返信として送ってください。
telegram-skip-note-prompt = スキップする理由は？エージェントへのメモを返信するか、「理由なしでスキップ」をタップしてください。
telegram-reply-placeholder = あなたの回答
chat-declined-note = スキップ: { $note }
chat-remind = { $count ->
   *[other] まだ { $count } 件の質問があなたの回答を待っています:
}
chat-stale = { $channel ->
        [wechat] その返信はこの質問が表示される前に書かれたため、使われませんでした。質問をもう一度送ります：
       *[other] このボタンは古くなっています。メッセージの現在のボタンを使ってください。
    }
chat-closed = この質問はすでに回答済みか、終了しています。
chat-tick-first = { $channel ->
        [wechat] 選択肢の番号を少なくとも一つ返信してください。
       *[other] まず 1 つ以上選ぶか、「その他…」を使ってください。
    }
chat-answer-sent = 回答を送信しました。
chat-skipped = スキップしました。
chat-too-long = 回答が長すぎます。短くして送ってください。
chat-not-recorded = Hark は今これを記録できませんでした。少し待ってからもう一度お試しください。
chat-skip-word = スキップ
chat-text-only = Hark が読めるのは文字だけです。番号か言葉で返信してください。
chat-nothing-waiting = いま回答を待っている質問はありません。
chat-no-such-option = その番号の選択肢はありません。
chat-one-option = この質問で選べるのは一つだけです。番号を一つ返信してください。

# WeChat（文字のみ：番号、言葉、スキップの語で返信）
wechat-recommended = おすすめ
wechat-how-one = 選ぶ選択肢の番号を返信してください。
wechat-how-many = 選ぶ選択肢の番号を返信してください（例：1 3）。
wechat-how-words = 自分の言葉で答えることもできます。
wechat-how-text = 答えを返信してください。
wechat-how-skip = 「{ $skip }」と返信するとスキップします（後ろに理由を書けます）。
wechat-more-waiting = このあとに { $count } 件の質問が待っています。
wechat-via = { $place ->
    [page] Hark のページで
    [client] エージェント自身の画面で
    [rule] 保存したルールで
   *[push] プッシュ通知から
}
wechat-via-channel = { $channel } で
wechat-closed-via = { $name }：{ $outcome }（{ $place }）。
wechat-closed = { $name }：{ $outcome }。
wechat-answer-sent = 回答を送信しました：{ $answer }
wechat-skipped = スキップしました。
wechat-skipped-note = スキップしました：{ $note }
wechat-remind = この質問はまだ回答を待っています。

# Claude Code と Codex の許可リクエストを Hark で尋ねる（`hark hook`）
hook-permission = { $tool } を許可しますか？
# A command shown literally: what stands for long runs of blanks and empty lines, and a cut
literal-blanks = ⟨空白 { $count } 個⟩
literal-empty-lines = ⟨空行 { $count } 行⟩
literal-cut = ⟨残り { $count } 文字は表示していません⟩
hook-allow = 許可
hook-deny = 拒否
# What Cursor shows the person when a call was denied in Hark
hook-denied = Hark で拒否されました。
# ほかの MCP サーバーのフォームを Hark で尋ねる（Claude Code の Elicitation フック）
hook-elicitation-title = { $server }：{ $message }
hook-yes = はい
hook-no = いいえ
hook-leave-empty = 空欄のままにする
hook-not-number = 「{ $typed }」は数値ではありません。
hook-not-integer = 「{ $typed }」は整数ではありません。
hook-too-small = 最小値 { $min } より小さい値です。
hook-too-large = 最大値 { $max } より大きい値です。
hook-too-short = 短すぎます。{ $min } 文字以上で入力してください。
hook-too-long = 長すぎます。{ $max } 文字以内で入力してください。
hook-too-few = 少なくとも { $min } 個選んでください。
hook-too-many = 選べるのは { $max } 個までです。
hook-not-format = { $format ->
    [email] メールアドレスではありません。
    [uri] 完全な Web アドレスではありません（例：https://example.com）。
    [date] 日付ではありません。2026-12-31 の形式で入力してください。
   *[date-time] 日時ではありません。2026-12-31T17:00:00Z の形式で入力してください。
}
# 承認を待つ計画（Claude Code の ExitPlanMode）
hook-plan-header = 計画
hook-plan-ask = { $agent } が計画を立て、開始の承認を待っています。
hook-plan-approve = 承認する
hook-plan-keep = 計画を続ける
# 「常に許可」：エージェントが提案するルールを、保存する前に表示
hook-always-allow = { $rule } を常に許可
hook-always-mode = 許可して { $mode } モードに切り替える
hook-always-kept = 保存先：{ $place }
hook-always-session = このセッションが終わるまで
hook-always-allow-call = 常に許可
hook-always-allow-means = 今回許可し、今後は { $agent } からのまったく同じ呼び出しを Hark が確認せずに許可します。Hark の設定で取り消せます。
hook-always-deny-call = 常に拒否
hook-always-deny-means = 今回拒否し、今後は { $agent } からのまったく同じ呼び出しを Hark が確認せずに拒否します。Hark の設定で取り消せます。

# Chat apps' reply windows (Slack's and Discord's modals, SPEC §17)
chat-pick = 選択してください
chat-answer-title = あなたの回答
chat-answer-label = あなたの回答（エージェントに届きます）
chat-skip-title = この質問をスキップ
chat-skip-label = スキップする理由：エージェントへのメモ（任意）
chat-cancel = キャンセル

# どのチャットアプリでも共通（チャットエンジン）: $app はアプリ名、$setup は設定コマンド、$channel は設定での名前
chat-app = { $channel ->
        [slack] Slack
        [discord] Discord
        [feishu] Feishu/Lark
        [telegram] Telegram
       *[wechat] WeChat
    }
chat-test = { $channel ->
        [telegram] Hark からこのチャットに届きました。エージェントからの質問はここに表示されます。
        [wechat] Hark はこの WeChat に届きます。エージェントからの質問はここに表示されます。
       *[other] Hark からここに届きました。エージェントからの質問はここに表示されます。
    }
chat-paired = ペアリングしました。エージェントからの質問はここに届き、回答できるのはあなただけです。
chat-pairing-failed = Hark はペアリングを保存できませんでした。Hark を実行しているコンピューターを確認して、もう一度お試しください。
chat-wrong-code = コードが正しくありません。Hark の設定または「{ $setup }」で現在のコードを確認し、{ $pair } に続けて送ってください。
chat-expired-code = このコードは期限切れです。Hark の設定または「{ $setup }」で新しいコードを取得してください。
chat-stranger = 申し訳ありませんが、この { $app } ボットは持ち主にしか応答しません。あなたのボットなら、Hark の設定または「{ $setup }」に表示されるコードを { $pair } に続けて送ってください。
chat-use-buttons = { $channel ->
        [wechat] この質問は選択肢からしか選べません。番号を返信してください。
        [telegram] 質問の下のボタンをタップするか、質問のメッセージに返信して自分の言葉で答えてください。エージェントに伝えたいことは、/tell に続けて書いてください。
        [feishu] 質問カードのボタンとフォームで回答してください。エージェントに伝えたいことは、tell に続けて書くか、質問に返信してください。
       *[other] 質問の下のボタンで回答してください。エージェントに伝えたいことは、tell に続けて書くか、質問に返信してください。
    }
chat-unpaired = { $channel ->
        [wechat] Hark はこの WeChat からログアウトしました。今後、質問はここに届きません。
       *[other] ここでの Hark とのペアリングは解除されました。今後ここに質問は届きません。
    }
chat-not-yours = このボットは持ち主にしか応答しません。
chat-private-only = ボットのペアリングはグループではなく、ボットとの個人チャットで行ってください。
chat-already-paired = このチャットはペアリング済みです。エージェントからの質問はここに届きます。

chat-session-reply = { $channel ->
        [wechat] 返答するには「/tell」に続けて内容を送ってください。
       *[other] このメッセージに返信すると、エージェントに伝わります。
    }
