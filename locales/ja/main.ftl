# Hark — 日本語。画面に表示される文言はすべてここから取り出され、キーは英語カタログと同じです。

app-name = Hark
language-name = 日本語
app-title = Hark — エージェントからの質問
pending-badge = { $count } 件待機中

connection-live = 接続中：新しい質問がすぐに表示されます
connection-reconnecting = 再接続しています…
connection-offline = オフライン：まもなく再試行します
connection-connecting = 接続しています…

nav-inbox = 受信箱
skip-to-content = 本文へスキップ

home-waiting-heading = 回答待ちの質問
home-history-heading = 履歴
home-empty-pending = すべて対応済みです。待っている質問はありません。エージェントからの新しい質問はここに表示されます。
home-empty-history = 回答した質問はまだありません。
home-loading = 質問を読み込んでいます…
home-question-count = 質問 { $count } 件

status-pending = 回答待ち
status-answered = 回答済み
status-declined = スキップ
status-timeout = 期限切れ
status-cancelled = 取り下げ

question-loading = 質問を読み込んでいます…
question-not-found = この質問は存在しないか、すでに保存されていません。
question-back = 受信箱に戻る
question-abandoned = エージェントはこの回答を待つのをやめました。回答はまだできます。エージェントが改めて尋ねたときに、その回答が渡されます。
question-via-client = エージェント自身のウィンドウで
question-via-push = プッシュ通知のボタンで
question-via-rule = 保存したルールで
question-via-channel = { $channel } で
note-orphan = Hark の再起動後、エージェントが戻りませんでした
note-late = エージェントが待つのをやめ、時間内に誰も回答しませんでした
note-chosen-by-timeout = 時間切れによる選択: 制限時間内に回答がなかったため、推奨の選択肢が送られました
question-option-recommended = おすすめ
question-other-label = その他（自由に入力）
question-other-placeholder = 回答を入力…
image-add = 画像を追加
image-hint = またはここに画像を貼り付け・ドロップ
image-alt = 画像 { $n }
image-remove = 画像 { $n } を削除
image-too-many = 1 つの回答に添付できる画像は { $max } 枚までです。
image-too-large = { $name } は { $whole }.{ $tenths } MB です。画像は 1 枚 { $max } MB までです。
image-wrong-type = { $name } は PNG、JPEG、WebP、GIF のいずれの画像でもありません。
image-unreadable = { $name } を読み込めませんでした。
answer-images = 画像 { $count } 枚
question-submit = 回答を送信
question-submitting = 送信しています…
question-reading-images = 画像を読み込んでいます…
question-submit-failed = 回答は受け付けられませんでした。{ $reason }
question-closed-answered = この質問には回答済みです。
question-closed-declined = この質問はスキップされました。
question-closed-timeout = 誰も回答しないうちに期限が切れました。
question-closed-cancelled = エージェントがこの質問を取り下げました。
question-your-answer = 回答：{ $answer }
question-note = メモ：{ $note }

not-found-title = ページが見つかりません
not-found-body = このアドレスには何もありません。
question-skip = この質問をスキップ…
question-skip-note = スキップする理由（任意、エージェントに伝わります）
question-skip-confirm = スキップ
question-keys-hint = キー操作：1–9 で選択 · Enter で送信 · Esc で戻る
question-needs-answer = 選択肢を選ぶか、回答を入力してください。
question-deadline = あと { $minutes } 分で期限切れ
question-deadline-soon = 1 分以内に期限切れ
age-just-now = たった今
age-minutes = { $count } 分前
age-hours = { $count } 時間前
age-days = { $count } 日前
home-unknown-source = その他のエージェント
tell-summary = エージェントに伝える…
tell-help = エージェントが次に Hark から回答を受け取るときに届きます。Claude Code では次の操作の後に届きます。
tell-placeholder = 例：本番ではなくステージングのデータベースを使って。
tell-send = エージェントに送る
tell-waiting = エージェントの受信待ち
tell-delivered = 届きました
tell-invalid = 4000 文字以内でメッセージを書いてください。
history-filter-label = 表示
history-filter-all = すべて
history-search-label = 履歴を検索
history-search-placeholder = 質問と回答を検索…
history-no-match = 履歴に一致するものはありません。
question-show-raw = 元の JSON を表示
nav-settings = 設定
settings-heading = 設定
settings-timeout = 既定の制限時間（秒）
settings-timeout-help = 質問が回答を待ってから期限切れになるまでの時間です。0 にすると回答があるまで待ちます。エージェントが独自に制限を指定することもあります。
settings-timeout-invalid = 制限時間は 0 から 2592000（30 日）までの整数（秒）で指定してください。
settings-remind = リマインド間隔（秒）
settings-remind-help = 回答待ちの質問をこの間隔で再通知します。0 にすると再通知しません。
settings-remind-invalid = リマインド間隔は 0 から 86400（1 日）までの整数（秒）で指定してください。
settings-typing-grace = 入力中は質問を開いておく（期限を過ぎてからの秒数）
settings-typing-grace-help = 回答を入力している間は、質問の期限があなたを待ちます。最後の入力から 1 分後に終わり、元の期限からは最大でこの時間まで延びます。0 にすると入力中でも期限で終わります。
settings-typing-grace-invalid = 0 から 86400（1 日）までの整数（秒）で指定してください。
settings-notification = 質問が届いたらデスクトップ通知を表示
settings-auto-open = 質問が届いて開いているページがなければブラウザーを開く
settings-sound = 質問が届いたら短い通知音を鳴らす
settings-save = 設定を保存
settings-saved = 保存しました。開いているすべてのページに新しい設定が反映されます。
settings-save-failed = 設定を保存できませんでした。デーモンのログを確認してください。
attention-title = （{ $count }）回答待ちの質問があります
attention-notification-title = { $count ->
    [one] エージェントから質問が届きました
   *[other] エージェントから質問が { $count } 件届きました
}
attention-notification-open = 質問を開く
attention-notification-open-all = 質問の一覧を開く
attention-enable-notifications = 通知をオンにする
settings-port = ポート
settings-port-help = デーモンが待ち受けるポートです。デーモンの再起動後に反映されます。HARK_PORT と --port が優先されます。
settings-port-invalid = ポートは 1 から 65535 までの整数で指定してください。
settings-orphan = 放置された質問を取り下げるまで（秒）
settings-orphan-help = 再起動後、この時間内にエージェントが戻らなければ質問を取り下げます。
settings-orphan-invalid = 1 から 86400（1 日）までの整数（秒）で指定してください。
settings-late = エージェントが待つのをやめた後も質問を開いておく時間（秒）
settings-late-help = エージェントの呼び出しが取り消されたりプログラムが終了したりしても、この時間内なら回答できます。エージェントは改めて尋ねたときに回答を受け取ります。0 にするとすぐに取り下げます。
settings-late-invalid = 0 から 86400（1 日）までの整数（秒）で指定してください。
settings-history-days = 履歴の保存期間（日）
settings-history-days-help = これより古い終了済みの質問は履歴から削除されます。
settings-history-days-invalid = 履歴の保存期間は 1 日から 3650 日までで指定してください。
settings-history-max = 最大保存件数（質問）
settings-history-max-help = 終了済みの質問を新しい順にこの件数まで保存します。
settings-history-max-invalid = 履歴の件数は 1 から 1000000 までの整数で指定してください。

prefs-language = 言語
prefs-theme = テーマ
prefs-apply = 適用
theme-system = システムに合わせる
theme-light = ライト
theme-dark = ダーク
settings-appearance-heading = 言語とテーマ
settings-appearance-help = 選択はブラウザーごとに保存されます。デスクトップ通知には最後に選んだ言語が使われます。

error-invalid-answer = 質問に合わない回答です。選択内容を確認してください。
error-not-found = この質問はもう存在しません。
error-not-pending = この質問はすでに終了しています。
error-too-many = 回答待ちの質問が多すぎます。先にいくつか回答するかスキップしてください。
error-too-many-messages = このエージェント宛てのメッセージがすでに多すぎます。エージェントが次に Hark に来たときに受け取ります。
error-unavailable = Hark に接続できません。しばらくしてからもう一度お試しください。
error-bad-request = Hark はこのリクエストを読み取れませんでした。Hark のページが送る形式ではありません。受信箱に戻って、もう一度お試しください。

# 日付と時刻：$hour と $minute は 2 桁です。
date-time = { $year }年{ $month }月{ $day }日 { $hour }:{ $minute }

settings-elicitation = エージェント自身のウィンドウが質問を表示できる場合は、そこでも尋ねる（先に届いた回答が採用されます）
settings-lan = 同じネットワーク上の他のデバイス（スマートフォン、タブレット）からの回答を許可する（デーモンの再起動後に反映）
phone-heading = スマートフォンで回答
phone-scan = スマートフォンのカメラでこのコードを読み取ってください。スマートフォンはこのコンピューターと同じネットワークにある必要があります。ペアリング済みの状態で Hark が開きます。
phone-secret = このリンクを知っている人は誰でも、エージェントの質問を読んで回答できます。ペアリング済みのすべてのデバイスを切断するには「hark token --rotate」を実行してください。
phone-no-address = Hark はネットワークで待ち受けていますが、このコンピューターにはスマートフォンから接続できるアドレスがありません。
phone-off = 他のデバイスからの回答はオフです。Hark はこのコンピューター上でのみ待ち受けています。オンにするには、上の「他のデバイスからの回答を許可する」にチェックを入れて Hark を再起動するか、「hark serve --lan」で起動してください。

history-older = さらに前の質問を表示
history-loading-older = 読み込んでいます…

history-export = 履歴をすべてダウンロード：
history-export-markdown = Markdown 文書
history-export-json = JSON データ

# ほかの場所にも通知する (設定)
elsewhere-heading = ほかの場所にも通知する
elsewhere-intro = Hark は質問を Telegram のチャットに送ったり、ntfy でスマートフォンにプッシュしたり、Webhook (Slack、Discord、Home Assistant など) に送信したりできます。チャネルをオンにしない限り、何もこのコンピューターの外に出ません。
elsewhere-ntfy = 質問を ntfy でスマートフォンにプッシュする
elsewhere-ntfy-server = ntfy サーバー
elsewhere-ntfy-topic = トピック
elsewhere-ntfy-topic-help = ntfy アプリでこのトピックを購読してください。トピックを知っている人は誰でもプッシュを読めるため、推測されにくいものにしてください。
elsewhere-ntfy-token = アクセストークン (任意)
elsewhere-ntfy-token-help = 保護されたトピックや自前のサーバー用です。secrets.json に保存され、二度と表示されません。空欄のままにすると保存済みのトークンを使い続けます。
elsewhere-ntfy-token-set = アクセストークンが保存されています。
elsewhere-ntfy-token-forget = 保存済みのアクセストークンを削除する
elsewhere-public-url = 公開アドレス
elsewhere-public-url-help = スマートフォンがどこからでもこのコンピューターに届くアドレスです (例: Tailscale の名前 https://desk.tail1234.ts.net)。プッシュ内のリンクと回答ボタンに使われます。未設定の場合は LAN モードのアドレスが使われます。
elsewhere-no-links = 公開アドレスも LAN モードも設定されていないため、プッシュには本文だけが載ります。回答はこのコンピューターで行ってください。
elsewhere-content = プッシュに質問の内容を表示する (オフにすると、質問が届いたことだけを知らせます)
elsewhere-webhooks = Webhook
elsewhere-webhooks-help = 1 行に 1 つのアドレスを入力します。それぞれに、質問が届いたときと終わったときに、専用のシークレットで署名して (X-Hark-Signature ヘッダー) 送信します。
elsewhere-webhook-secret = { $url } のシークレット:
elsewhere-status = { $target }: 送信 { $sent } 件、失敗した試行 { $failures } 件
elsewhere-status-failing = { $target } への送信に失敗しています: { $reason }
elsewhere-save = チャネルを保存
elsewhere-test-ntfy = テストのプッシュを送る
elsewhere-test-webhook = Webhook にテストを送る
elsewhere-test-sent = テストは届きました。
elsewhere-test-failed = テストは届きませんでした: { $reason }
elsewhere-action-failed = うまくいきませんでした: { $reason }
settings-channels-invalid = チャネルの設定が正しくありません。アドレスとトピック (英数字、- と _) を確認してください。

# Telegram（設定）
elsewhere-telegram = Telegram ボット
elsewhere-telegram-help = 質問を Telegram のチャットに送り、そこでタップするだけで回答できます。@BotFather（/newbot）でボットを作り、そのトークンをここに貼り付けてから、ペアリングコードをボットに送ってください。
elsewhere-telegram-enabled = 質問を Telegram に送る
elsewhere-telegram-token = ボットのトークン
elsewhere-telegram-token-help = @BotFather が発行します。secrets.json に保存され、二度と表示されません。空欄のままにすると保存済みのトークンを使い、新しいペアリングコードを発行します。
elsewhere-telegram-connect = トークンを確認してペアリングコードを取得
elsewhere-telegram-bot = ボット: @{ $bot }
elsewhere-telegram-token-set = ボットのトークンは保存済みです。
elsewhere-telegram-code = チャットをペアリングするには、10 分以内にこれをボットに送ってください:
elsewhere-telegram-open = コード入力済みのチャットを開く
elsewhere-telegram-paired = チャットはペアリング済みです。質問はそこに届き、回答できるのはそのチャットだけです。
elsewhere-telegram-not-paired = まだチャットがペアリングされていません。
elsewhere-telegram-unpair = チャットのペアリングを解除
elsewhere-telegram-forget = ボットのトークンを削除してボットをオフにする
elsewhere-test-telegram = Telegram にテストメッセージを送る
elsewhere-telegram-token-shape = ボットのトークンではないようです。@BotFather のトークンは 123456789:AAE… のような形です（数字、コロン、続いて英数字）。
elsewhere-telegram-wrong-token = Telegram はこのトークンを認識しません。@BotFather（/mybots → API Token）からもう一度コピーしてください。
elsewhere-telegram-no-token = まず @BotFather のボットトークンを貼り付けてください。
elsewhere-telegram-unreachable = トークンを確認するために Telegram に接続できませんでした: { $reason }
elsewhere-slack = Slack
elsewhere-slack-help = 各質問を Slack のダイレクトメッセージに送り、タップで回答できます。Hark の README にあるマニフェストから Slack アプリを作成し（Socket Mode をオン：このコンピューターへの接続は不要です）、ワークスペースにインストールして 2 つのトークンをここに貼り付け、ペアリングコードをアプリにダイレクトメッセージで送ってください。
elsewhere-slack-enabled = 質問を Slack に送る
elsewhere-slack-bot-token = Bot User OAuth Token（xoxb-…）
elsewhere-slack-app-token = アプリレベルトークン（xapp-…、connections:write 付き）
elsewhere-slack-token-help = secrets.json に保存され、二度と表示されません。両方を空のままにすると保存済みのものを使い、新しいペアリングコードを発行します。
elsewhere-slack-connect = トークンを確認してペアリングコードを取得
elsewhere-slack-bot = アプリ: @{ $bot }（{ $team }）
elsewhere-slack-token-set = 2 つのトークンが保存されています。
elsewhere-slack-connected = Slack に接続しています。
elsewhere-slack-not-connected = 現在 Slack に接続していません。Hark は再試行を続けます。
elsewhere-slack-code = ペアリングするには、10 分以内に Slack のダイレクトメッセージでこれをアプリに送ってください:
elsewhere-slack-paired = ペアリング済み: 質問はその人のダイレクトメッセージに届き、回答できるのはその人だけです。
elsewhere-slack-not-paired = まだ誰もペアリングしていません。
elsewhere-slack-unpair = ペアリングを解除
elsewhere-slack-forget = Slack のトークンを削除して Slack をオフにする
elsewhere-test-slack = Slack にテストメッセージを送る
elsewhere-slack-bot-token-shape = ボットトークンの形ではありません。Slack の Bot User OAuth Token は xoxb- で始まります。
elsewhere-slack-app-token-shape = アプリレベルトークンの形ではありません。xapp- で始まります（Basic Information → App-Level Tokens）。
elsewhere-slack-wrong-bot-token = Slack がこのボットトークンを受け付けません。アプリをワークスペースにインストールしてから、OAuth & Permissions でコピーし直してください。
elsewhere-slack-wrong-app-token = Slack がこのアプリレベルトークンを受け付けません。connections:write スコープ付きで作成し、Socket Mode をオンにしてください。
elsewhere-slack-no-token = まず 2 つのトークンを貼り付けてください。
elsewhere-slack-unreachable = トークンを確認するために Slack に接続できませんでした: { $reason }
elsewhere-discord = Discord
elsewhere-discord-help = 各質問を Discord のダイレクトメッセージに送り、クリックで回答できます。Discord の Developer Portal でアプリケーションを作成し、ボットトークンをここにコピーし、あなたが参加しているサーバーにボットを追加して（あなたに書き込めるように）、ペアリングコードをダイレクトメッセージで送ってください。このコンピューターへの接続は不要です。
elsewhere-discord-enabled = 質問を Discord に送る
elsewhere-discord-bot-token = ボットトークン
elsewhere-discord-token-help = Developer Portal の Bot ページ（Reset Token）から。secrets.json に保存され、二度と表示されません。空のままにすると保存済みのものを使い、新しいペアリングコードを発行します。
elsewhere-discord-connect = トークンを確認してペアリングコードを取得
elsewhere-discord-bot = ボット: @{ $bot }
elsewhere-discord-token-set = ボットトークンが保存されています。
elsewhere-discord-connected = Discord に接続しています。
elsewhere-discord-not-connected = 現在 Discord に接続していません。Hark は再試行を続けます。
elsewhere-discord-code = ペアリングするには、10 分以内に Discord のダイレクトメッセージでこれをボットに送ってください:
elsewhere-discord-paired = ペアリング済み: 質問はその人のダイレクトメッセージに届き、回答できるのはその人だけです。
elsewhere-discord-not-paired = まだ誰もペアリングしていません。
elsewhere-discord-unpair = ペアリングを解除
elsewhere-discord-forget = Discord のトークンを削除して Discord をオフにする
elsewhere-test-discord = Discord にテストメッセージを送る
elsewhere-discord-token-shape = ボットトークンの形ではありません。Developer Portal のトークンはドットで区切られた 3 つの部分からなります。
elsewhere-discord-wrong-token = Discord がこのトークンを受け付けません。Developer Portal の Bot ページでリセットし、新しいトークンをコピーしてください。
elsewhere-discord-no-token = まずボットトークンを貼り付けてください。
elsewhere-discord-unreachable = トークンを確認するために Discord に接続できませんでした: { $reason }
elsewhere-feishu = Feishu / Lark
elsewhere-feishu-help = 各質問をカードとして Feishu または Lark のボットとのチャットに送り、タップで回答できます。開発者コンソールで自社アプリを作成し、ボット機能を追加し、「長期接続でイベントを受信」を選び（このコンピューターに外部から接続する必要はありません）、バージョンを公開してから、App ID と App Secret をここに貼り付け、ペアリングコードをボットに送ってください。
elsewhere-feishu-enabled = 質問を Feishu / Lark に送る
elsewhere-feishu-platform = アプリのあるプラットフォーム
elsewhere-feishu-platform-feishu = Feishu（中国、open.feishu.cn）
elsewhere-feishu-platform-lark = Lark（中国以外、open.larksuite.com）
elsewhere-feishu-platform-other = 別のアドレス：{ $address }
elsewhere-feishu-app-id = App ID（cli_…）
elsewhere-feishu-app-secret = App Secret
elsewhere-feishu-secret-help = どちらも「認証情報と基本情報」ページにあります。secrets.json に保存され、二度と表示されません。両方とも空のままにすると保存済みのものを使い、新しいペアリングコードを取得します。
elsewhere-feishu-connect = アプリを確認してペアリングコードを取得
elsewhere-feishu-bot = アプリ: { $bot }
elsewhere-feishu-token-set = App ID と App Secret が保存されています。
elsewhere-feishu-connected = Feishu / Lark に接続しています。
elsewhere-feishu-not-connected = 現在 Feishu / Lark に接続していません。Hark は再試行を続けます。
elsewhere-feishu-code = ペアリングするには、10 分以内にボットへのダイレクトメッセージでこれを送ってください:
elsewhere-feishu-paired = ペアリング済み: 質問はその人とボットのチャットに届き、回答できるのはその人だけです。
elsewhere-feishu-not-paired = まだ誰もペアリングしていません。
elsewhere-feishu-unpair = ペアリングを解除
elsewhere-feishu-forget = Feishu / Lark のアプリを削除してオフにする
elsewhere-test-feishu = Feishu / Lark にテストメッセージを送る
elsewhere-feishu-app-id-shape = App ID の形ではありません。App ID は cli_ で始まります（認証情報と基本情報）。
elsewhere-feishu-wrong-app-id = Feishu / Lark はこの App ID を知りません。もう一度コピーし、アプリが上で選んだプラットフォームにあるか確認してください。
elsewhere-feishu-wrong-secret = App Secret がこの App ID と一致しません。「認証情報と基本情報」からもう一度コピーしてください。
elsewhere-feishu-no-bot = このアプリにはまだボットがありません。ボット機能を追加してバージョンを公開し、もう一度お試しください。
elsewhere-feishu-no-credentials = まず App ID と App Secret を貼り付けてください。
elsewhere-feishu-unreachable = アプリを確認するために Feishu / Lark に接続できませんでした: { $reason }

# WeChat（設定）
elsewhere-wechat = WeChat
elsewhere-wechat-help = 質問を文字で WeChat に送り、そこで答えます：番号、自分の言葉、または「スキップ」で返信します。WeChat でコードをスキャンしてログインします。答えられるのはスキャンしたアカウントだけです。
elsewhere-wechat-enabled = 質問を WeChat に送る
elsewhere-wechat-connect = WeChat でログイン
elsewhere-wechat-scan = このコードを WeChat でスキャンし（発見 → スキャン）、スマートフォンで確認してください。
elsewhere-wechat-scanned = スキャンされました。スマートフォンでログインを確認してください。
elsewhere-wechat-needs-code = WeChat がスマートフォンに数字を表示しています。ここに入力してください。
elsewhere-wechat-wrong-code = 数字が一致しません。いま WeChat に表示されている数字を入力してください。
elsewhere-wechat-code = スマートフォンに表示された数字
elsewhere-wechat-send-code = 数字を送る
elsewhere-wechat-check = スキャンしました：もう一度確認
elsewhere-wechat-confirmed = ログインしました。
elsewhere-wechat-expired = ログインが確認される前にコードの期限が切れました。もう一度ログインして新しいコードを出してください。
elsewhere-wechat-failed = ログインに失敗しました：{ $reason }
elsewhere-wechat-paired = ログイン済み：質問はスキャンした WeChat に届き、答えられるのもそのアカウントだけです。
elsewhere-wechat-not-paired = ログインしていません。
elsewhere-wechat-session-ended = WeChat がログインを終了しました。質問を受け取り続けるには、もう一度ログインしてください。
elsewhere-wechat-unpair = WeChat からログアウト
elsewhere-wechat-unreachable = WeChat からログイン用のコードを取得できませんでした：{ $reason }
elsewhere-wechat-code-shape = WeChat がスマートフォンに表示している数字を入力してください。
elsewhere-test-wechat = WeChat にテストメッセージを送る

# クイック返信
rules-heading = 記憶した判断
rules-help = 「常に許可」または「常に拒否」と答えた許可の確認です。同じエージェントが同じ呼び出しを再び求めると、Hark があなたに確認せずすぐに答え、履歴にそのことが残ります。
rules-none = 記憶した判断はまだありません。
rules-allowed = 常に許可
rules-denied = 常に拒否
rules-what = { $agent }：{ $tool }
rules-take-back = 取り消す
presets-heading = クイック返信
presets-help = よく入力する文を 1 行に 1 つずつ、使いたい順に書いてください。質問画面では入力欄の下のボタンをタップするか、入力中に Alt+1〜Alt+9 を押すと挿入されます。追加・編集・並べ替え・削除は、ここで行を書き換えて行います。
presets-placeholder = 問題なさそうです。進めてください。
presets-save = クイック返信を保存
presets-invalid = クイック返信は 50 件まで、1 件あたり 500 文字までです。
presets-label = クイック返信

## Agent sessions (SPEC §20): the Agents page and the notices of an agent that finished or waits.
session-state = { $state ->
        [working] 作業中
        [asking] Hark で質問中
        [waiting] 自身の画面であなたを待っています
        [finished] ターンを終えました
       *[ended] 終了
    }
session-notice-finished = { $agent } がターンを終えました
session-notice-waiting = { $agent } が自身の画面であなたを待っています
session-notice-open = エージェント一覧を開く
nav-agents = エージェント
agents-title = あなたのエージェント
agents-loading = エージェントを読み込んでいます…
agents-empty = まだどのエージェントも Hark に状況を知らせていません。エージェントに Hark のフックを追加すると（Hark のガイドの「エージェント」を参照）、作業中・あなた待ち・完了の状態がここに表示されます。
agents-questions = あなたの回答を待っています
settings-continue-wait = 完了したエージェントがあなたの返信を待つ時間（秒）
settings-continue-wait-help = Claude Code、Codex、Gemini CLI、Cursor がターンを終えたとき、そのフックはあなたからのメッセージをこの時間だけ待ち、届けば作業を続けさせます。0 なら待ちません。すでに届いているメッセージはそのまま続きに使われます。
settings-continue-wait-invalid = 0 から 86400（1 日）までの整数の秒数にしてください。
settings-session-idle = 静かになったエージェントを忘れるまでの時間（秒）
settings-session-idle-help = この時間連絡のないエージェントはエージェント一覧から消えます。
settings-session-idle-invalid = 60 から 604800（1 週間）までの整数の秒数にしてください。
settings-notify-waiting = エージェントが自身の画面であなたを待っているときに知らせる
settings-notify-finished = エージェントがターンを終えたときに知らせる
